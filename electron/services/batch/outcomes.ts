// Every row of a batch with what became of it, read from the batch tables and the drafts.
import type { Outcome } from '../../../common/batch/report.ts';
import type { DraftFields, DraftState, PlacedOrder, Problem } from '../../contract/schemas/orders.ts';
import type { OrderShipping } from './shipping-table.ts';
import type { BatchError, BatchReportRow } from './schemas.ts';
import type { BatchRecord, BatchTables, StoredRecord } from './tables.ts';
import { describeErrors } from './validate.ts';

interface OrderRow {
  reference: string;
  skipped: string | null;
  state: DraftState | null;
  problem: string | null;
  placed: string | null;
  fields: string | null;
  unanswered: number | null;
}

export async function reportRows(tables: BatchTables, batch: BatchRecord): Promise<BatchReportRow[]> {
  const sent = await tables.sql.all<OrderRow>(
    `SELECT bo.reference, bo.skipped, d.state, d.problem, d.placed, d.fields, d.unanswered
     FROM batch_orders bo LEFT JOIN drafts d ON d.id = bo.draft_id WHERE bo.batch_id = ?`,
    [batch.id],
  );
  const orders = new Map(sent.map((o) => [o.reference, o]));
  const unsent = unsentOutcomes(await tables.records(batch.id), await tables.errors(batch.id, undefined, ['error', 'skip']));
  const quoted = await tables.shipping(batch.id);
  const first = new Set<string>();
  return unsent.map((row) => {
    const order = orders.get(row.reference);
    const shipping = first.has(row.reference) ? null : shippingOf(order, quoted.get(row.reference));
    first.add(row.reference);
    return order ? { ...row, ...fromOrder(order), shipping } : { ...row, shipping };
  });
}

/** What the order was charged when placed (the method it went with), else its shipping as last quoted. */
function shippingOf(order: OrderRow | undefined, quoted: OrderShipping | undefined): BatchReportRow['shipping'] {
  const sent = order?.fields && !order.skipped ? (JSON.parse(order.fields) as DraftFields).shippingMethod : null;
  const placed = order?.placed ? (JSON.parse(order.placed) as PlacedOrder) : null;
  const method = sent ?? quoted?.method;
  if (!method) return null;
  const { carrier, method: code, minDeliveryTime, maxDeliveryTime } = method;
  const price = placed?.shippingPrice ?? method.price;
  return { carrier, method: code, price, currency: placed?.currency ?? quoted?.currency ?? 'EUR', minDeliveryTime, maxDeliveryTime };
}

/**
 * Every row as it stands before anything is sent: not taken (and why), held back by a problem of its own,
 * of another row of its order or of the header, or waiting to be sent. Also the report of a file the CLI
 * refused before signing in.
 */
export function unsentOutcomes(records: readonly StoredRecord[], problems: readonly BatchError[]): BatchReportRow[] {
  const errorsByRow = new Map<number, BatchError[]>();
  const skips = new Map<number, string>();
  for (const e of problems) {
    if (e.kind === 'skip') skips.set(e.row, e.message);
    else if (e.kind === 'error') errorsByRow.set(e.row, [...(errorsByRow.get(e.row) ?? []), e]);
  }
  const headerErrors = errorsByRow.get(1) ?? [];
  const invalidReferences = new Set<string>();
  for (const r of records) if (errorsByRow.has(r.row)) invalidReferences.add(r.reference);
  return records.map((r) => {
    const own = errorsByRow.get(r.row) ?? [];
    const base = { row: r.row, reference: r.reference, cells: r.cells, orderId: null as string | null };
    // Not taken (not open on its platform, or nothing to print): said why, never sent.
    const skipped = skips.get(r.row);
    if (skipped) return { ...base, outcome: 'skipped' as const, message: skipped };
    if (headerErrors.length) return { ...base, outcome: 'invalid' as const, message: describeErrors(headerErrors) };
    if (own.length) return { ...base, outcome: 'invalid' as const, message: describeErrors(own) };
    if (invalidReferences.has(r.reference)) return { ...base, outcome: 'invalid' as const, message: 'Another row of this order has a problem' };
    return { ...base, outcome: 'pending' as const, message: 'Not sent' };
  });
}

function fromOrder(order: OrderRow): { outcome: Outcome; orderId: string | null; message: string | null } {
  const placed = order.placed ? (JSON.parse(order.placed) as PlacedOrder) : null;
  const problem = order.problem ? (JSON.parse(order.problem) as Problem) : null;
  if (order.skipped) {
    // Said already by the message where it tells what became of the order ("Placed as …").
    const told = /^(Placed as|Already) /.test(order.skipped);
    const then = told ? '' : order.state === 'placed' ? `; that order is placed (${placed?.orderId})` : order.state ? `; that order is ${order.state}` : '';
    // The order id of the earlier order, when it was placed: the row did get its order, once.
    return { outcome: 'skipped', orderId: placed?.orderId ?? null, message: `${order.skipped}${then}` };
  }
  switch (order.state) {
    case 'placed':
      return { outcome: 'placed', orderId: placed?.orderId ?? null, message: null };
    case 'rejected':
      return { outcome: 'rejected', orderId: null, message: problem?.message ?? 'Rejected by the service' };
    case 'needs-attention':
      return { outcome: 'needs-attention', orderId: null, message: problem?.message ?? 'Needs attention in Drafts' };
    case 'draft':
      return { outcome: 'cancelled', orderId: null, message: 'Cancelled before it was sent' };
    case null:
      return { outcome: 'cancelled', orderId: null, message: 'Removed from Drafts before it was sent' };
    default:
      return { outcome: 'pending', orderId: null, message: order.state === 'sending' || order.unanswered ? 'On its way to the service; its outcome is not known yet (it is never placed twice)' : 'Waiting to be sent' };
  }
}
