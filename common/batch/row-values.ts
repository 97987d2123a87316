// Reading one cell as an order value: recipient text, country, model, quantity, id lists.
import { MAX_QUANTITY } from '../orders/limits.ts';
import { idsOf, type ModelKeys } from './sku-match.ts';

/** lower-case model name or file name → model id; several ids when the name is not unique in the project */
export type ModelLookup = ModelKeys;

export type Value<T> = ({ ok: true } & T) | { ok: false; message: string };


/**
 * Spreadsheet text as a label can carry it: line breaks in an address become ", " and runs of
 * spaces one space. Other control characters stay, for hasControlCharacters to refuse, as the service does.
 */
export function recipientText(field: string, raw: string): string {
  const joined = field === 'streetAddress' ? raw.replace(/\s*[\r\n]+\s*/g, ', ') : withoutTextMark(field, raw);
  // Most cells have no run of white space: left as they are, without a new string each.
  return /\s\s|[\t\n\r\f\v]/.test(joined) ? joined.replace(/\s+/g, ' ').trim() : joined.trim();
}

export const CONTROL_MESSAGE = 'Contains control characters (invisible characters that labels cannot print)';

export function hasControlCharacters(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f-\u009f]/.test(text);
}

/**
 * The ' a spreadsheet (or Shopify's export) puts before a zip code, phone number or SKU to keep it as text,
 * so that "'02134" keeps its leading zero: not part of the value.
 */
export function withoutTextMark(field: string, raw: string): string {
  return (field === 'postal' || field === 'phoneNumber' || field === 'sku') && /^'[\d+(]/.test(raw) ? raw.slice(1) : raw;
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

function allIds(lookup: ModelLookup): ReadonlySet<string> {
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
    if (lookup && lookup.size > 0 && !allIds(lookup).has(modelId)) return { ok: false, message: `Model ${idCell} is not in this project` };
    return { ok: true, modelId, name };
  }
  if (!nameCell) return { ok: false, message: 'No model: give a model id or a model file name' };
  if (!lookup) return { ok: false, message: "Model names cannot be looked up: the project's models could not be listed" };
  const key = nameCell.toLowerCase();
  const found = idsOf(lookup, key);
  const ids = found.length > 0 ? found : idsOf(lookup, key.replace(/\.(stl|obj|3mf)$/, ''));
  if (ids.length === 0) return { ok: false, message: `No model named "${nameCell}" in this project` };
  if (ids.length > 1) return { ok: false, message: `${ids.length} models in this project are named "${nameCell}": use the model id instead` };
  return { ok: true, modelId: ids[0], name };
}
