// A reference already held by another order (an earlier batch's, or one placed on its own): a row under
// it is skipped when the batch is sent, as importing a file again must place nothing twice. A row that
// says something else than that order would then be dropped without a word; it is the row's problem
// instead, naming what differs, so that the shop knows its change did not go through.
import { toAlpha2 } from '../../common/orders/countries.ts';
import { modelsKey } from '../orders/adopt.ts';
import type { BatchOrder } from '../../common/batch/rows-to-orders.ts';
import type { DraftFields, DraftState } from '../schemas/orders.ts';
import type { Db } from '../storage/database.ts';
import { heldElsewhere } from './tables.ts';

export interface EarlierOrder {
  fields: DraftFields;
  state: DraftState;
  /** 'in batch "shop.csv" of 2026-11-20', or 'as a single order on 2026-11-20' */
  where: string;
}

interface Row {
  fields: string;
  state: DraftState;
  created_at: string;
  file_name: string | null;
  batch_created_at: string | null;
}

/** Where an order holding a reference was made, as the batch's messages say it. */
export function whereMade(batch: { file_name: string; created_at: string } | undefined | null, draftCreatedAt: string): string {
  return batch ? `in batch "${batch.file_name}" of ${batch.created_at.slice(0, 10)}` : `as a single order on ${draftCreatedAt.slice(0, 10)}`;
}

/**
 * The order another batch or the order form made under `reference`, as the batch's send would find it:
 * not the batch's own, and not one a cancelled batch left unsent (that one this batch takes over).
 */
export function earlierOrderLookup(db: Db) {
  const query = db.prepare<[string, string], Row>(
    `SELECT d.fields, d.state, d.created_at, b.file_name, b.created_at AS batch_created_at FROM drafts d LEFT JOIN batches b ON b.id = d.batch_id
     WHERE d.order_reference = ? AND ${heldElsewhere('?')}`,
  );
  return (batchId: string, reference: string): EarlierOrder | null => {
    const row = query.get(reference, batchId);
    if (!row) return null;
    const batch = row.file_name === null ? null : { file_name: row.file_name, created_at: row.batch_created_at ?? row.created_at };
    return { fields: JSON.parse(row.fields) as DraftFields, state: row.state, where: whereMade(batch, row.created_at) };
  };
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
