// CSV for spreadsheets: what the app exports (batch reports, order lists). Cells are neutralised against
// formula injection, since names and addresses come from customers and shop fronts.

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

/**
 * A cell as it was before neutraliseCell, for a file PrintDesk exported and the user imports again (a report
 * fixed in a spreadsheet): "'+49 30 1234567" is a phone number again. A quote before anything else is the
 * cell's own.
 */
export function restoreCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** UTF-8 with a BOM and CRLF line ends: what Excel opens correctly by double-click. */
export function csvText(lines: readonly (readonly string[])[]): string {
  return `\uFEFF${lines.map((line) => line.map(neutraliseCell).join(',')).join('\r\n')}\r\n`;
}
