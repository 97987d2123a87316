// A reference already held by another order (an earlier batch's, or one placed on its own): a row under
// it is skipped when the batch is sent, as importing a file again must place nothing twice. A row that
// says something else than that order would then be dropped without a word; it is the row's problem
// instead, naming what differs, so that the shop knows its change did not go through.
import { BATCH_FIELDS, FIELD_LABELS, type BatchField, type ColumnMapping } from '../../../common/batch/mapping.ts';
import { toAlpha2 } from '../../../common/orders/countries.ts';
import { modelsKey } from '../orders/adopt.ts';
import type { BatchOrder } from '../../../common/batch/rows-to-orders.ts';
import type { DraftFields, DraftState, PlacedOrder } from '../../contract/schemas/orders.ts';
import { chunksOf } from '../storage/many-rows.ts';
import { placeholders, type Sql } from '../storage/sql.ts';
import { heldElsewhere } from './tables.ts';

/** A row's values by the field they were read as. */
export type FieldValues = Partial<Record<BatchField, string>>;

export interface EarlierOrder {
  fields: DraftFields;
  state: DraftState;
  /** 'in batch "shop.csv" of 2026-11-20', or 'as a single order on 2026-11-20' */
  where: string;
  /** the service's id, once placed */
  orderId: string | null;
  /** the rows of the batch that made it, as its file had them and as they were sent (fixed in PrintDesk) */
  rows: Array<{ imported: FieldValues; sent: FieldValues }>;
}

interface Row {
  order_reference: string;
  fields: string;
  state: DraftState;
  created_at: string;
  placed: string | null;
  batch_id: string | null;
  mapping: string | null;
  file_name: string | null;
  batch_created_at: string | null;
}

/** The values of the mapped fields in a row's cells. */
export function valuesOf(mapping: ColumnMapping, cells: readonly string[]): FieldValues {
  return Object.fromEntries(BATCH_FIELDS.flatMap((field) => (mapping[field] === undefined ? [] : [[field, (cells[mapping[field]] ?? '').trim()]])));
}

/** Where an order holding a reference was made, as the batch's messages say it. */
export function whereMade(batch: { file_name: string; created_at: string } | undefined | null, draftCreatedAt: string): string {
  return batch ? `in batch "${batch.file_name}" of ${batch.created_at.slice(0, 10)}` : `as a single order on ${draftCreatedAt.slice(0, 10)}`;
}

/** The earlier orders of some of a batch's references, by reference: those that have one. */
export type EarlierOrders = (batchId: string, references: readonly string[]) => Promise<Map<string, EarlierOrder>>;

/**
 * The orders another batch or the order form made under `references`, as the batch's send would find them:
 * not the batch's own, and not one a cancelled batch left unsent (that one this batch takes over). `sql`: the
 * store, or the transaction to read them in. A few statements for a thousand references.
 */
export async function earlierOrders(sql: Sql, batchId: string, references: readonly string[]): Promise<Map<string, EarlierOrder>> {
  const found = new Map<string, EarlierOrder>();
  for (const some of chunksOf([...new Set(references)], 1000)) {
    const rows = await sql.all<Row>(
      `SELECT d.order_reference, d.fields, d.state, d.created_at, d.placed, d.batch_id, b.mapping, b.file_name, b.created_at AS batch_created_at FROM drafts d LEFT JOIN batches b ON b.id = d.batch_id
       WHERE d.order_reference IN (${placeholders(some.length)}) AND ${heldElsewhere('?')}`,
      [...some, batchId],
    );
    const cells = await cellsOf(sql, rows);
    for (const row of rows) found.set(row.order_reference, earlierOf(row, cells.get(`${row.batch_id} ${row.order_reference}`) ?? []));
  }
  return found;
}

type Cells = { cells: string; imported_cells: string | null };

/** The rows of the batches that made these orders, by "<batch> <reference>", in their order. */
async function cellsOf(sql: Sql, orders: readonly Row[]): Promise<Map<string, Cells[]>> {
  const made = orders.filter((o) => o.batch_id !== null && o.mapping);
  const byOrder = new Map<string, Cells[]>();
  if (made.length === 0) return byOrder;
  const batches = [...new Set(made.map((o) => o.batch_id as string))];
  const wanted = new Set(made.map((o) => `${o.batch_id} ${o.order_reference}`));
  const rows = await sql.all<Cells & { batch_id: string; reference: string }>(
    `SELECT batch_id, reference, cells, imported_cells FROM batch_rows WHERE batch_id IN (${placeholders(batches.length)}) AND reference IN (${placeholders(made.length)}) ORDER BY batch_id, row`,
    [...batches, ...made.map((o) => o.order_reference)],
  );
  for (const row of rows) {
    const key = `${row.batch_id} ${row.reference}`;
    if (wanted.has(key)) byOrder.set(key, [...(byOrder.get(key) ?? []), row]);
  }
  return byOrder;
}

function earlierOf(row: Row, cells: readonly Cells[]): EarlierOrder {
  const batch = row.file_name === null ? null : { file_name: row.file_name, created_at: row.batch_created_at ?? row.created_at };
  const mapping = row.mapping ? (JSON.parse(row.mapping) as ColumnMapping) : null;
  const rows = mapping
    ? cells.map((r) => {
        const sent = JSON.parse(r.cells) as string[];
        return { imported: valuesOf(mapping, r.imported_cells ? (JSON.parse(r.imported_cells) as string[]) : sent), sent: valuesOf(mapping, sent) };
      })
    : [];
  const placed = row.placed ? (JSON.parse(row.placed) as PlacedOrder) : null;
  return { fields: JSON.parse(row.fields) as DraftFields, state: row.state, where: whereMade(batch, row.created_at), orderId: placed?.orderId ?? null, rows };
}

const text = (value: string | undefined) => (value ?? '').trim().replace(/\s+/g, ' ').normalize('NFC').toLowerCase();
const postal = (value: string) => text(value).replace(/[\s-]/g, '');
const country = (value: string) => toAlpha2(value.trim()) ?? text(value);

/** What the row says differently from the earlier order, in words; empty when it is the same order. */
export function differencesFrom(earlier: DraftFields, order: BatchOrder): string[] {
  const was = earlier.recipient;
  const now = order.recipient;
  const found: string[] = [];
  if (text(was.firstName) !== text(now.firstName) || text(was.lastName) !== text(now.lastName)) found.push(`recipient (${was.firstName} ${was.lastName}, not ${now.firstName} ${now.lastName})`);
  if (text(was.streetAddress) !== text(now.streetAddress)) found.push(`address (${was.streetAddress}, not ${now.streetAddress})`);
  if (postal(was.postal) !== postal(now.postal)) found.push(`postal code (${was.postal}, not ${now.postal})`);
  if (text(was.city) !== text(now.city)) found.push(`city (${was.city}, not ${now.city})`);
  if (country(was.country) !== country(now.country) || text(was.countryState) !== text(now.countryState)) found.push('country or state');
  if (modelsKey(earlier.models) !== modelsKey(order.models)) found.push(quantityOrModels(earlier.models, order.models));
  return found;
}

/** "quantity (3, not 5)" when only the quantity of one model changed, else "models". */
function quantityOrModels(was: DraftFields['models'], now: BatchOrder['models']): string {
  const ids = (lines: ReadonlyArray<{ modelId: string }>) => lines.map((l) => l.modelId.toLowerCase()).sort().join(',');
  if (was.length !== 1 || now.length !== 1 || ids(was) !== ids(now)) return 'models';
  return `quantity (${was[0].quantity}, not ${now[0].quantity})`;
}

/** The row's problem when it changes an order made earlier under its reference. */
export function changedOrderMessage(reference: string, earlier: EarlierOrder, differences: readonly string[]): string {
  const fix = 'Give this row a new reference to order it as well, or put it back as it was to skip it.';
  const other = `another ${differences.join(', ')}`;
  if (earlier.state === 'placed') return `Reference ${reference} was placed ${earlier.where} with ${other}. A placed order does not change when its file is imported again. ${fix}`;
  return `Reference ${reference} is already used ${earlier.where} by an order with ${other}; importing this file does not change it. ${fix}`;
}

const plain = (value: string | undefined) => (value ?? '').trim().replace(/\s+/g, ' ').normalize('NFC').toLowerCase();
/** How a field is named in "edited in PrintDesk: e-mail, phone". */
const EDITED_NAMES: Partial<Record<BatchField, string>> = { email: 'e-mail', phoneNumber: 'phone', countryState: 'state' };
const editedName = (field: BatchField) => EDITED_NAMES[field] ?? FIELD_LABELS[field].toLowerCase();

/** The fields fixed in PrintDesk before the earlier order was sent, in words. */
export function editedInApp(earlier: EarlierOrder): string[] {
  const fields = new Set<BatchField>();
  for (const { imported, sent } of earlier.rows) for (const field of BATCH_FIELDS) if (plain(imported[field]) !== plain(sent[field])) fields.add(field);
  return [...fields].map(editedName);
}

/** Whether these rows are the earlier batch's rows as its file had them: the same file, imported again. */
export function sameAsImported(earlier: EarlierOrder, rows: readonly FieldValues[]): boolean {
  if (earlier.rows.length === 0 || earlier.rows.length !== rows.length) return false;
  return rows.every((values, i) => {
    const imported = earlier.rows[i].imported;
    return BATCH_FIELDS.every((field) => values[field] === undefined || imported[field] === undefined || plain(values[field]) === plain(imported[field]));
  });
}

/** "Placed as 3f9a… (edited in PrintDesk: e-mail) in batch "shop.csv" of 2026-11-20": what became of the row's order. */
export function earlierSays(earlier: EarlierOrder): string {
  const edited = editedInApp(earlier);
  const fixed = edited.length ? ` (edited in PrintDesk: ${edited.join(', ')})` : '';
  if (earlier.state === 'placed') return `Placed as ${earlier.orderId ?? 'an order of the service'}${fixed} ${earlier.where}`;
  return `Already ${earlier.state === 'needs-attention' ? 'waiting for your consent' : earlier.state}${fixed} ${earlier.where}`;
}
