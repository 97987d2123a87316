// A batch after a send is still where its rows are worked on: what it placed (and for how much), the rows
// left to fix and the orders the service rejected, each row with the order it became; and what sending
// the rest would cost.
import { summariseCosts, type BatchCosts } from '../../../common/batch/costs.ts';
import { isSendable } from '../../../common/batch/rows-to-orders.ts';
import { toAlpha2 } from '../../../common/orders/countries.ts';
import type { DraftState, PlacedOrder, Problem } from '../../contract/schemas/orders.ts';
import { chunksOf } from '../storage/many-rows.ts';
import { placeholders, type Dialect, type Sql } from '../storage/sql.ts';
import type { BatchRow, BatchRowOrder, BatchWorkspace } from './schemas.ts';
import { earlierSays, type EarlierOrders } from './earlier-order.ts';
import type { OrderShipping } from './shipping-table.ts';
import type { BatchTables, StoredRecord } from './tables.ts';
import type { ValidatedOrder } from './validate.ts';

/** A placed order's price and currency, read from its JSON: each engine has its own functions for it. */
const PLACED = {
  sqlite: { cost: "json_extract(d.placed, '$.shippingPrice')", currency: "json_extract(d.placed, '$.currency')" },
  postgres: { cost: "CAST(CAST(d.placed AS json) ->> 'shippingPrice' AS DOUBLE PRECISION)", currency: "CAST(d.placed AS json) ->> 'currency'" },
} as const satisfies Record<Dialect, { cost: string; currency: string }>;

export async function workspaceOf(sql: Sql, batchId: string): Promise<BatchWorkspace> {
  const { cost, currency } = PLACED[sql.dialect];
  const states = await sql.all<{ state: DraftState; n: number; cost: number | null; currency: string | null }>(
    `SELECT d.state, COUNT(*) AS n, SUM(${cost}) AS cost, MAX(${currency}) AS currency
     FROM batch_orders bo JOIN drafts d ON d.id = bo.draft_id WHERE bo.batch_id = ? AND bo.skipped IS NULL GROUP BY d.state`,
    [batchId],
  );
  const of = (state: DraftState) => states.find((s) => s.state === state);
  const leftToFix = await sql.get<{ n: number }>(
    `SELECT COUNT(DISTINCT r.reference) AS n FROM batch_rows r JOIN batch_errors e ON e.batch_id = r.batch_id AND (e.row = r.row OR e.row = 1) AND e.kind = 'error' WHERE r.batch_id = ?`,
    [batchId],
  );
  return {
    placed: of('placed')?.n ?? 0,
    placedCost: of('placed')?.cost ?? 0,
    currency: of('placed')?.currency ?? 'EUR',
    rejected: of('rejected')?.n ?? 0,
    needsAttention: of('needs-attention')?.n ?? 0,
    leftToFix: leftToFix?.n ?? 0,
  };
}

/** The order each of these references became: where this batch handed it over, or the earlier one holding it. */
export async function rowOrders(sql: Sql, batchId: string, references: readonly string[], earlierOrders: EarlierOrders): Promise<Map<string, BatchRowOrder>> {
  if (references.length === 0) return new Map();
  const found = new Map<string, BatchRowOrder>();
  for (const some of chunksOf(references, 1000)) {
    const rows = await sql.all<{ reference: string; state: DraftState; placed: string | null; problem: string | null }>(
      `SELECT bo.reference, d.state, d.placed, d.problem FROM batch_orders bo JOIN drafts d ON d.id = bo.draft_id
       WHERE bo.batch_id = ? AND bo.skipped IS NULL AND bo.reference IN (${placeholders(some.length)})`,
      [batchId, ...some],
    );
    for (const r of rows) {
      const placed = r.placed ? (JSON.parse(r.placed) as PlacedOrder) : null;
      const problem = r.problem ? (JSON.parse(r.problem) as Problem) : null;
      found.set(r.reference, { state: r.state, orderId: placed?.orderId ?? null, message: problem?.message ?? null, earlier: false });
    }
  }
  const earlier = await earlierOrders(batchId, references.filter((reference) => !found.has(reference)));
  for (const reference of references) {
    const order = earlier.get(reference);
    if (order && !found.has(reference)) found.set(reference, { state: order.state, orderId: order.orderId, message: earlierSays(order), earlier: true });
  }
  return found;
}

/** Rows as the review shows them: their problems, and on an order's first row its shipping as quoted and the order it became. */
export async function rowsWithFindings(tables: BatchTables, earlierOrders: EarlierOrders, batchId: string, records: readonly StoredRecord[]): Promise<BatchRow[]> {
  const errors = await tables.errors(batchId, records.map((r) => r.row));
  const shipping = await tables.shipping(batchId);
  const orders = await rowOrders(tables.sql, batchId, [...new Set(records.map((r) => r.reference))], earlierOrders);
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
export async function costsOf(tables: BatchTables, batchId: string, orders: readonly ValidatedOrder[]): Promise<BatchCosts> {
  const taken = await tables.taken(batchId);
  const going = orders.filter((o) => isSendable(o) && o.method && !taken.has(o.reference));
  return summariseCosts(going.map((o) => ({ country: toAlpha2(o.recipient.country) ?? o.recipient.country, currency: o.currency ?? 'EUR', method: o.method as NonNullable<ValidatedOrder['method']> })));
}

export type { BatchCosts };
