// Reading one cell as an order value: recipient text, country, model, quantity, id lists.
import countries from 'i18n-iso-countries';
import { toAlpha2 } from '../orders/countries.ts';
import { MAX_QUANTITY } from '../orders/limits.ts';

/** lower-case model name or file name → model id; several ids when the name is not unique in the project */
export type ModelLookup = ReadonlyMap<string, string | readonly string[]>;

export type Value<T> = ({ ok: true } & T) | { ok: false; message: string };


/**
 * Spreadsheet text as a label can carry it: line breaks in an address become ", " and runs of
 * spaces one space. Other control characters are refused, as the service refuses them.
 */
export function recipientValue(field: string, raw: string): Value<{ text: string }> {
  const joined = field === 'streetAddress' ? raw.replace(/\s*[\r\n]+\s*/g, ', ') : raw;
  const text = joined.replace(/\s+/g, ' ').trim();
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) return { ok: false, message: 'Contains control characters (invisible characters that labels cannot print)' };
  return { ok: true, text };
}

/** Codes stay as written (the form's rules check them); a full English name becomes its code. */
export function countryCodeOf(text: string): string {
  if (text.length <= 3 || toAlpha2(text)) return text;
  return countries.getAlpha2Code(text, 'en') ?? text;
}

export function quantityOf(text: string): Value<{ value: number }> {
  if (!text) return { ok: false, message: 'Required: a whole number of 1 or more' };
  if (!/^\d+$/.test(text)) return { ok: false, message: `"${text}" is not a whole number of 1 or more` };
  const value = Number(text);
  if (value < 1) return { ok: false, message: 'At least 1' };
  if (value > MAX_QUANTITY) return { ok: false, message: `At most ${MAX_QUANTITY.toLocaleString('en')}` };
  return { ok: true, value };
}

/** Several ids in one cell, separated by commas, semicolons, bars or spaces. */
export function idList(text: string): string[] {
  return text ? text.split(/[,;|\s]+/).filter(Boolean) : [];
}

const knownIds = new WeakMap<ModelLookup, ReadonlySet<string>>();

function idsOf(lookup: ModelLookup): ReadonlySet<string> {
  let ids = knownIds.get(lookup);
  if (!ids) {
    ids = new Set([...lookup.values()].flat().map((id) => id.toLowerCase()));
    knownIds.set(lookup, ids);
  }
  return ids;
}

/** The model of a row, by id (checked against the project when its models are known) or by name. */
export function modelLine(idCell: string, nameCell: string, lookup: ModelLookup | undefined): Value<{ modelId: string; name?: string }> {
  const name = nameCell || undefined;
  if (idCell) {
    const modelId = idCell.toLowerCase();
    if (lookup && lookup.size > 0 && !idsOf(lookup).has(modelId)) return { ok: false, message: `Model ${idCell} is not in this project` };
    return { ok: true, modelId, name };
  }
  if (!nameCell) return { ok: false, message: 'No model: give a model id or a model file name' };
  if (!lookup) return { ok: false, message: "Model names cannot be looked up: the project's models could not be listed" };
  const key = nameCell.toLowerCase();
  const found = lookup.get(key) ?? lookup.get(key.replace(/\.(stl|obj|3mf)$/, ''));
  const ids = found === undefined ? [] : [...new Set((typeof found === 'string' ? [found] : found).map((id) => id.toLowerCase()))];
  if (ids.length === 0) return { ok: false, message: `No model named "${nameCell}" in this project` };
  if (ids.length > 1) return { ok: false, message: `${ids.length} models in this project are named "${nameCell}": use the model id instead` };
  return { ok: true, modelId: ids[0], name };
}
