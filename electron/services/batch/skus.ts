// The SKUs a batch names, each with the model the project's SKU table or a model's file name makes of it:
// what the Batch view's SKU table lists, and where a SKU is picked once for the project.
import { restoreCell } from '../../../common/csv-text.ts';
import { platformById } from '../../../common/batch/platforms/index.ts';
import { withoutTextMark } from '../../../common/batch/row-values.ts';
import { createSkuLookup, skuKey, skusOfRow, type ProjectModels } from '../../../common/batch/sku-match.ts';
import type { BatchSku } from './schemas.ts';
import type { SkuTable } from './sku-table.ts';
import type { BatchRecord, StoredRecord } from './tables.ts';

/** Each distinct SKU of the rows (ignoring case), with its first spelling and product name, and how many rows name it. */
export function skusOf(batch: BatchRecord, records: readonly StoredRecord[]): Map<string, { sku: string; productName: string; rows: number }> {
  const { mapping } = batch;
  const found = new Map<string, { sku: string; productName: string; rows: number }>();
  if (mapping.sku === undefined) return found;
  const listed = platformById(batch.layout)?.skuList ?? false;
  const cell = (record: StoredRecord, column: number | undefined) => (column === undefined ? '' : restoreCell((record.cells[column] ?? '').trim()));
  for (const record of records) {
    // Rows that name their model themselves do not go through the SKU table.
    if (cell(record, mapping.modelId) || cell(record, mapping.modelName)) continue;
    const productName = cell(record, mapping.productName);
    for (const sku of skusOfRow(withoutTextMark('sku', cell(record, mapping.sku)), productName, listed)) {
      const key = skuKey(sku);
      const held = found.get(key);
      if (held) held.rows++;
      else found.set(key, { sku, productName: productName === sku ? '' : productName, rows: 1 });
    }
  }
  return found;
}

/** The batch's SKUs for the view: those without a model first, then the most used. */
export async function batchSkuList(batch: BatchRecord, records: readonly StoredRecord[], table: SkuTable, models: ProjectModels | null): Promise<BatchSku[]> {
  const lookup = createSkuLookup(await table.entries(batch.projectId), models);
  const list = [...skusOf(batch, records).values()].map((found): BatchSku => {
    const match = lookup(found.sku);
    return {
      ...found,
      match: match.kind === 'model' ? { modelId: match.modelId, name: match.name ?? match.modelId, how: match.how } : null,
      skip: match.kind === 'skip',
      sameName: match.kind === 'none' ? match.sameName : 0,
    };
  });
  const open = (s: BatchSku) => (s.match || s.skip ? 1 : 0);
  return list.sort((a, b) => open(a) - open(b) || b.rows - a.rows || a.sku.localeCompare(b.sku));
}
