// The result of a batch as CSV: every row with its outcome, ready to open in a spreadsheet.
// Cells are neutralised against formula injection, since the rows came from a shop front.

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
}

const REPORT_COLUMNS = ['Row', 'Outcome', 'Order id', 'Order reference', 'Message'];

/**
 * OWASP's CSV-injection advice: a cell that starts with = + - @ TAB or CR could be read as a
 * formula, so it gets a leading single quote, and every cell is quoted with inner quotes doubled.
 * Spaces before the sign count too (a spreadsheet that trims them on import would see the formula), and
 * so do the full-width signs some spreadsheets read as the ASCII ones.
 */
const FORMULA_START = /^[\s\u00a0\u3000]*[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

export function neutraliseCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** UTF-8 with a BOM and CRLF line ends: what Excel opens correctly by double-click. */
export function reportCsv(header: readonly string[], rows: readonly ReportRow[]): string {
  const lines = [[...REPORT_COLUMNS, ...header]];
  for (const r of rows) {
    const cells = header.map((_, i) => r.cells[i] ?? '');
    lines.push([String(r.row), r.outcome, r.orderId ?? '', r.reference, r.message ?? '', ...cells]);
  }
  return `\uFEFF${lines.map((line) => line.map(neutraliseCell).join(',')).join('\r\n')}\r\n`;
}

export function countOutcomes(rows: readonly ReportRow[]): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const r of rows) counts[r.outcome]++;
  return counts;
}
