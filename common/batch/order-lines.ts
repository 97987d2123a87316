// The model lines of one order: a model per row, by id, by file name or by the shop's SKU (through the
// project's SKU table), each with its quantity, checked as the order form checks them. A line that is no
// print (marked so in the SKU table), an export's summary row or a line already fulfilled is left out, and
// said so on its row.
import { validateModelLines } from '../orders/validation.ts';
import type { BatchField } from './mapping.ts';
import type { CsvRecord } from './csv-record.ts';
import { NOT_OPEN_LABELS } from './platforms/types.ts';
import { modelLine, quantityOf, withoutTextMark, type Value } from './row-values.ts';
import type { BatchModelLine, Context, SkipReason } from './rows-to-orders.ts';
import { skusOfRow } from './sku-match.ts';

export const MAX_LINES_PER_ORDER = 100;

interface Lines {
  models: BatchModelLine[];
  /** the order is not taken: nothing in it is left to print */
  skipped: { reason: SkipReason; message: string } | null;
}

type Line = { modelId: string; quantity: number; name?: string };

export function linesOf(ctx: Context): Lines {
  const { input, records, named, fail } = ctx;
  const { platform } = input;
  const models: BatchModelLine[] = [];
  const lineRows: number[] = [];
  let notPrints = 0;
  let fulfilled = 0;
  let items = 0;
  for (const record of records) {
    const kind = platform?.lineKind?.((column) => named(record, column)) ?? 'item';
    if (kind === 'summary') continue;
    if (kind === 'fulfilled' && !input.include?.includes('fulfilled')) {
      fail(record.row, null, `Item already fulfilled on ${platform?.name}: left out`, 'note');
      fulfilled++;
      continue;
    }
    items++;
    const lines = rowLines(ctx, record);
    if (lines === 'not-a-print') {
      notPrints++;
      continue;
    }
    for (const line of lines) {
      models.push(line);
      lineRows.push(record.row);
    }
  }
  if (items === 0 && fulfilled === 0) fail(records[0].row, null, 'No item to print in this order: its rows name no product');
  checkLines(ctx, models, lineRows);
  if (models.length > 0 || ctx.records.length === 0) return { models, skipped: null };
  if (notPrints > 0 && notPrints === items) return { models, skipped: { reason: 'no-prints', message: 'Not taken: nothing in this order is a print (its items are marked "not a print")' } };
  if (fulfilled > 0 && items === 0) return { models, skipped: { reason: 'fulfilled', message: `Not taken: every item is ${NOT_OPEN_LABELS.fulfilled} (include fulfilled orders to send them)` } };
  return { models, skipped: null };
}

/** The row's model lines, each problem said on its cell; `not-a-print` when the SKU table says so. */
function rowLines(ctx: Context, record: CsvRecord): Line[] | 'not-a-print' {
  const { input, cell, fail } = ctx;
  const { mapping } = input;
  const quantity = mapping.quantity === undefined ? { ok: true as const, value: 1 } : quantityOf(cell(record, 'quantity'));
  const idCell = cell(record, 'modelId');
  const nameCell = cell(record, 'modelName');
  if (idCell || nameCell || mapping.sku === undefined) {
    const field: BatchField = mapping.modelId !== undefined && (idCell || mapping.modelName === undefined) ? 'modelId' : 'modelName';
    const line = modelLine(idCell, nameCell, input.models);
    if (!line.ok) fail(record.row, field, line.message);
    if (!quantity.ok) fail(record.row, 'quantity', quantity.message);
    return line.ok && quantity.ok ? [{ modelId: line.modelId, quantity: quantity.value, ...(line.name ? { name: line.name } : {}) }] : [];
  }
  return skuLines(ctx, record, quantity);
}

/** Lines from the shop's SKU cell (or, where a product has none, its name), through the SKU table. */
function skuLines(ctx: Context, record: CsvRecord, quantity: Value<{ value: number }>): Line[] | 'not-a-print' {
  const { input, cell, fail } = ctx;
  const product = cell(record, 'productName');
  const written = withoutTextMark('sku', cell(record, 'sku'));
  const skus = skusOfRow(written, product, input.platform?.skuList ?? false);
  if (skus.length === 0) {
    fail(record.row, 'sku', 'No SKU or product name: give the SKU, or a model file name or model id');
    return [];
  }
  if (!quantity.ok) {
    fail(record.row, 'quantity', quantity.message);
    return [];
  }
  const each = quantities(skus.length, quantity.value);
  if (each === null) {
    fail(record.row, 'quantity', `${quantity.value} items of ${skus.length} SKUs, and this file does not say how many of each: import the "Order Items" download instead, or give each SKU its own row`);
    return [];
  }
  if (!input.skus) {
    fail(record.row, 'sku', "SKUs cannot be looked up: the project's models could not be listed");
    return [];
  }
  const lines: Line[] = [];
  let notPrints = 0;
  for (const sku of skus) {
    const match = input.skus(sku);
    if (match.kind === 'model') lines.push({ modelId: match.modelId, quantity: each, ...(match.name ? { name: match.name } : {}) });
    else if (match.kind === 'skip') {
      notPrints++;
      fail(record.row, 'sku', `"${sku}" is not a print: left out`, 'note');
    } else {
      const which = match.sameName > 1 ? `${match.sameName} models have this file name: pick one` : 'pick its model';
      fail(record.row, 'sku', `SKU "${sku}" has no model yet: ${which} in the SKU table, or mark it "not a print"`);
    }
  }
  return notPrints === skus.length ? 'not-a-print' : lines;
}

/** Each SKU's quantity when one cell names several: only when the count says so (one each). */
function quantities(skus: number, total: number): number | null {
  if (skus === 1) return total;
  return total === skus ? 1 : null;
}

/** The service's limits on an order's lines, said on the row of the line that breaks them. */
function checkLines({ records, input, cell, fail }: Context, models: readonly BatchModelLine[], lineRows: readonly number[]) {
  if (models.length > MAX_LINES_PER_ORDER) {
    fail(lineRows[MAX_LINES_PER_ORDER], null, `An order holds at most ${MAX_LINES_PER_ORDER} models; this order has ${models.length}`);
  }
  for (const [key, message] of Object.entries(validateModelLines(models))) {
    const [, index, part] = key.split('.');
    if (index === undefined) continue; // "no models": each row without one already has its own error
    const record = records.find((r) => r.row === lineRows[Number(index)]) as CsvRecord;
    const field: BatchField = part === 'quantity' ? 'quantity' : input.mapping.sku !== undefined && !cell(record, 'modelId') && !cell(record, 'modelName') ? 'sku' : cell(record, 'modelId') ? 'modelId' : 'modelName';
    fail(record.row, field, message);
  }
}
