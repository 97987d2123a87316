// The result of a batch as CSV: every row with its outcome, ready to open in a spreadsheet.
// Cells are neutralised against formula injection, since the rows came from a shop front.
import { csvText } from '../csv-text.ts';

export { neutraliseCell } from '../csv-text.ts';

export const OUTCOMES = ['placed', 'rejected', 'needs-attention', 'skipped', 'invalid', 'cancelled', 'pending'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export interface ReportRow {
  row: number;
  reference: string;
  outcome: Outcome;
  /** the service's order id once placed */
  orderId: string | null;
  message: string | null;
  /** the row's cells as imported (or as fixed in place) */
  cells: readonly string[];
  /** its order's shipping, charged (placed) or as last quoted, on the order's first row */
  shipping?: {
    carrier: string;
    method: string;
    /** cents */
    price: number;
    currency: string;
    minDeliveryTime: string | null;
    maxDeliveryTime: string | null;
  } | null;
}

// "Service order id", not "Order id": imported again (a report fixed in a spreadsheet), the service's id
// must not be read as the order reference, which the column beside it is.
// The shipping columns are named so that no field's column matching takes them (not "Shipping method").
const REPORT_COLUMNS = ['Row', 'Outcome', 'Service order id', 'Order reference', 'Message', 'Shipped with', 'Shipping cost', 'Currency', 'Delivery from', 'Delivery by'];

export function reportCsv(header: readonly string[], rows: readonly ReportRow[]): string {
  const lines = [[...REPORT_COLUMNS, ...header]];
  for (const r of rows) {
    const cells = header.map((_, i) => r.cells[i] ?? '');
    const s = r.shipping;
    const shipping = s ? [`${s.carrier} ${s.method}`, (s.price / 100).toFixed(2), s.currency, s.minDeliveryTime?.slice(0, 10) ?? '', s.maxDeliveryTime?.slice(0, 10) ?? ''] : ['', '', '', '', ''];
    lines.push([String(r.row), r.outcome, r.orderId ?? '', r.reference, r.message ?? '', ...shipping, ...cells]);
  }
  return csvText(lines);
}

export function countOutcomes(rows: readonly ReportRow[]): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const r of rows) counts[r.outcome]++;
  return counts;
}
