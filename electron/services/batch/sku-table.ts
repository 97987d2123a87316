// The project's SKU table (table batch_skus, made by the batches' migrations): which model a shop's
// SKU prints, or that it is no print at all. Kept per project, since model ids are the project's; picked
// once in the Batch view, and imported or exported as CSV.
import { csvText } from '../../../common/csv-text.ts';
import { normalizeHeader } from '../../../common/batch/mapping.ts';
import { parseCsv } from '../../../common/batch/parse-csv.ts';
import { idsOf, skuKey, type ProjectModels, type SkuEntry } from '../../../common/batch/sku-match.ts';
import { GUID } from '../../../common/orders/validation.ts';
import { HostError } from '../api/errors.ts';
import { insertMany } from '../storage/many-rows.ts';
import type { Params, Sql } from '../storage/sql.ts';

export type SkuTable = ReturnType<typeof skuTable>;

const EXPORT_HEADER = ['SKU', 'Model id', 'Model name', 'Not a print'];
const YES = new Set(['yes', 'y', 'true', '1', 'x', 'skip', 'ja', 'oui', 'si', 'sí']);

const UPSERT_TAIL = 'ON CONFLICT (project_id, sku_key) DO UPDATE SET sku = excluded.sku, model_id = excluded.model_id, skip = excluded.skip, updated_at = excluded.updated_at';
const COLUMNS = ['project_id', 'sku_key', 'sku', 'model_id', 'skip', 'updated_at'];

export function skuTable(sql: Sql, stamp: () => string) {
  async function entries(projectId: string): Promise<Map<string, SkuEntry>> {
    const rows = await sql.all<{ sku_key: string; sku: string; model_id: string | null; skip: number }>('SELECT sku_key, sku, model_id, skip FROM batch_skus WHERE project_id = ? ORDER BY sku_key', [projectId]);
    return new Map(rows.map((r) => [r.sku_key, { sku: r.sku, modelId: r.model_id, skip: r.skip === 1 }]));
  }

  /** The row kept for a choice, or null when the choice forgets the SKU; throws when it is not one. */
  function rowOf(projectId: string, sku: string, choice: { modelId: string | null; skip: boolean }): { key: string; row: Params | null } {
    const key = skuKey(sku);
    if (!key) throw new HostError('INVALID_INPUT', 'A SKU cannot be empty');
    if (choice.modelId !== null && !GUID.test(choice.modelId)) throw new HostError('INVALID_INPUT', `${choice.modelId} is not a model id`);
    if (!choice.skip && choice.modelId === null) return { key, row: null };
    return { key, row: [projectId, key, sku.trim(), choice.skip ? null : (choice.modelId as string).toLowerCase(), choice.skip ? 1 : 0, stamp()] };
  }

  /** A model for the SKU, "not a print", or (neither) forgotten, so that its file name may match again. */
  async function set(projectId: string, sku: string, choice: { modelId: string | null; skip: boolean }): Promise<void> {
    const { key, row } = rowOf(projectId, sku, choice);
    if (row) await insertMany(sql, 'batch_skus', COLUMNS, [row], UPSERT_TAIL);
    else await sql.run('DELETE FROM batch_skus WHERE project_id = ? AND sku_key = ?', [projectId, key]);
  }

  async function exportCsv(projectId: string, models: ProjectModels | null): Promise<string> {
    const lines = [...(await entries(projectId)).values()].map((e) => [e.sku, e.modelId ?? '', (e.modelId && models?.names.get(e.modelId)) || '', e.skip ? 'yes' : '']);
    return csvText([EXPORT_HEADER, ...lines]);
  }

  /**
   * A SKU table as CSV (what exportCsv writes, or a shop's own list): a SKU column, and a model by id or by
   * name, or "not a print". Every row is checked before any is kept; the rows name what is wrong.
   */
  async function importCsv(projectId: string, bytes: Uint8Array, models: ProjectModels | null): Promise<{ imported: number }> {
    const parsed = parseCsv(bytes);
    if (!parsed.ok) throw new HostError('FILE_INVALID', parsed.error.message);
    const column = (...names: string[]) => parsed.value.header.findIndex((h) => names.includes(normalizeHeader(h)));
    const [sku, id, name, skip] = [column('sku'), column('modelid'), column('modelname', 'model', 'filename', 'modelfile'), column('notaprint', 'skip')];
    if (sku === -1) throw new HostError('FILE_INVALID', 'The SKU table needs a "SKU" column, and a "Model id", "Model name" or "Not a print" column beside it');
    const problems: string[] = [];
    const chosen: Array<{ sku: string; modelId: string | null; skip: boolean }> = [];
    for (const { row, cells } of parsed.value.records) {
      const cell = (at: number) => (at === -1 ? '' : (cells[at] ?? '').trim());
      const value = { sku: cell(sku), modelId: null as string | null, skip: YES.has(cell(skip).toLowerCase()) };
      if (!value.sku) continue;
      if (!value.skip) value.modelId = modelOf(cell(id), cell(name), models, (message) => problems.push(`Row ${row}: ${message}`));
      if (value.skip || value.modelId) chosen.push(value);
    }
    if (problems.length) throw new HostError('FILE_INVALID', `Nothing was imported. ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`);
    // One line a SKU (the last the file gives), all in one statement per thousand.
    const rows = new Map(chosen.map((c) => [skuKey(c.sku), rowOf(projectId, c.sku, c).row as Params]));
    await sql.transaction((tx) => insertMany(tx, 'batch_skus', COLUMNS, [...rows.values()], UPSERT_TAIL));
    return { imported: chosen.length };
  }

  return { entries, set, exportCsv, importCsv };
}

/** A model by its id (one of the project's, when they are known) or by its name or file name. */
function modelOf(id: string, name: string, models: ProjectModels | null, problem: (message: string) => void): string | null {
  if (id) {
    if (!GUID.test(id)) return (problem(`"${id}" is not a model id`), null);
    if (models && !models.names.has(id.toLowerCase())) return (problem(`model ${id} is not in this project`), null);
    return id.toLowerCase();
  }
  if (!name) return (problem('give a model id or name, or "yes" under Not a print'), null);
  if (!models) return (problem("model names cannot be looked up: the project's models could not be listed"), null);
  const key = name.toLowerCase();
  const ids = idsOf(models.byName, key).length ? idsOf(models.byName, key) : idsOf(models.byStem, key.replace(/\.(stl|obj|3mf)$/, ''));
  if (ids.length === 1) return ids[0];
  return (problem(ids.length ? `${ids.length} models are named "${name}": give the model id` : `no model named "${name}" in this project`), null);
}
