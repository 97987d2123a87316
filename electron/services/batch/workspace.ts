// A batch after a send is still where its rows are worked on: what it placed (and for how much), the rows
// left to fix and the orders the service rejected, each row with the order it became; and what sending
// the rest would cost.
import { summariseCosts, type BatchCosts } from '../../../common/batch/costs.ts';
import { isSendable } from '../../../common/batch/rows-to-orders.ts';
import { toAlpha2 } from '../../../common/orders/countries.ts';
import type { DraftState, PlacedOrder, Problem } from '../../contract/schemas/orders.ts';
import type { Db } from '../storage/database.ts';
import type { BatchRow, BatchRowOrder, BatchWorkspace } from './schemas.ts';
import { earlierSays, type EarlierOrder } from './earlier-order.ts';
import type { OrderShipping } from './shipping-table.ts';
import type { BatchTables, StoredRecord } from './tables.ts';
import type { ValidatedOrder } from './validate.ts';

export function workspaceOf(db: Db, batchId: string): BatchWorkspace {
  const states = db
    .prepare<[string], { state: DraftState; n: number; cost: number | null; currency: string | null }>(
      `SELECT d.state, COUNT(*) AS n, SUM(json_extract(d.placed, '$.shippingPrice')) AS cost, MAX(json_extract(d.placed, '$.currency')) AS currency
       FROM batch_orders bo JOIN drafts d ON d.id = bo.draft_id WHERE bo.batch_id = ? AND bo.skipped IS NULL GROUP BY d.state`,
    )
    .all(batchId);
  const of = (state: DraftState) => states.find((s) => s.state === state);
  const leftToFix =
    db
      .prepare<[string], { n: number }>(
        `SELECT COUNT(DISTINCT r.reference) AS n FROM batch_rows r JOIN batch_errors e ON e.batch_id = r.batch_id AND (e.row = r.row OR e.row = 1) AND e.kind = 'error' WHERE r.batch_id = ?`,
      )
      .get(batchId)?.n ?? 0;
  return {
    placed: of('placed')?.n ?? 0,
    placedCost: of('placed')?.cost ?? 0,
    currency: of('placed')?.currency ?? 'EUR',
    rejected: of('rejected')?.n ?? 0,
    needsAttention: of('needs-attention')?.n ?? 0,
    leftToFix,
  };
}

/** The order each of these references became: where this batch handed it over, or the earlier one holding it. */
export function rowOrders(db: Db, batchId: string, references: readonly string[], earlierOrder: (batchId: string, reference: string) => EarlierOrder | null): Map<string, BatchRowOrder> {
  if (references.length === 0) return new Map();
  const rows = db
    .prepare<unknown[], { reference: string; state: DraftState; placed: string | null; problem: string | null }>(
      `SELECT bo.reference, d.state, d.placed, d.problem FROM batch_orders bo JOIN drafts d ON d.id = bo.draft_id
       WHERE bo.batch_id = ? AND bo.skipped IS NULL AND bo.reference IN (SELECT value FROM json_each(?))`,
    )
    .all(batchId, JSON.stringify(references));
  const found = new Map(
    rows.map((r) => {
      const placed = r.placed ? (JSON.parse(r.placed) as PlacedOrder) : null;
      const problem = r.problem ? (JSON.parse(r.problem) as Problem) : null;
      return [r.reference, { state: r.state, orderId: placed?.orderId ?? null, message: problem?.message ?? null, earlier: false }];
    }),
  );
  for (const reference of references) {
    const earlier = found.has(reference) ? null : earlierOrder(batchId, reference);
    if (earlier) found.set(reference, { state: earlier.state, orderId: earlier.orderId, message: earlierSays(earlier), earlier: true });
  }
  return found;
}

/** Rows as the review shows them: their problems, and on an order's first row its shipping as quoted and the order it became. */
export function rowsWithFindings(tables: BatchTables, earlierOrder: (batchId: string, reference: string) => EarlierOrder | null, batchId: string, records: readonly StoredRecord[]): BatchRow[] {
  const errors = tables.errors(batchId, records.map((r) => r.row));
  const shipping = tables.shipping(batchId);
  const orders = rowOrders(tables.db, batchId, [...new Set(records.map((r) => r.reference))], earlierOrder);
  const first = new Set<string>();
  return records.map((r) => {
    const quoted = first.has(r.reference) ? undefined : shipping.get(r.reference);
    first.add(r.reference);
    return {
      row: r.row,
      reference: r.reference,
      cells: r.cells,
      errors: errors.filter((e) => e.row === r.row),
      shipping: quoted ? { ...quoted.method, currency: quoted.currency } : null,
      order: orders.get(r.reference) ?? null,
    };
  });
}

/** Each valid order's quoted shipping, to keep with the batch. */
export function shippingOf(orders: readonly ValidatedOrder[]): OrderShipping[] {
  return orders.flatMap((o) => (o.method && isSendable(o) ? [{ reference: o.reference, method: o.method, currency: o.currency ?? 'EUR' }] : []));
}

/** What a send would place now, and for how much: valid orders with a method, not handed over or held elsewhere. */
export function costsOf(tables: BatchTables, batchId: string, orders: readonly ValidatedOrder[]): BatchCosts {
  const taken = tables.taken(batchId);
  const going = orders.filter((o) => isSendable(o) && o.method && !taken.has(o.reference));
  return summariseCosts(going.map((o) => ({ country: toAlpha2(o.recipient.country) ?? o.recipient.country, currency: o.currency ?? 'EUR', method: o.method as NonNullable<ValidatedOrder['method']> })));
}

export type { BatchCosts };
