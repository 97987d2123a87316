// CSV/TSV bytes → header and records, with the failures a print shop meets named plainly:
// not UTF-8, a quote left open, an empty file. Pure: no DOM, no Node.
import { fileKind } from '../file-kind.ts';
import Papa from 'papaparse';
import type { CsvError, CsvRecord, CsvResult, ParsedCsv } from './csv-record.ts';

export type { CsvError, CsvRecord, CsvResult, ParsedCsv };

const DELIMITERS = [',', ';', '\t', '|'] as const;

/**
 * Spreadsheets and other files picked by mistake, by their first bytes: named, rather than read as text in
 * a wrong encoding or as a header without rows.
 */
function notText(bytes: Uint8Array): CsvError | null {
  const save = 'In your spreadsheet, use File › Save As and choose "CSV UTF-8 (comma delimited)", then import that file.';
  const kind = fileKind(bytes);
  if (kind === 'zip') return { code: 'not-text', message: `This is an Excel workbook (.xlsx) or another ZIP file, not CSV. ${save}` };
  if (kind === 'office') return { code: 'not-text', message: `This is an old Excel workbook (.xls), not CSV. ${save}` };
  if (kind === 'pdf') return { code: 'not-text', message: 'This is a PDF document, not CSV: export the orders from your shop as CSV.' };
  // UTF-16 text has NUL bytes by nature; it is told by its byte order mark and decoded.
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (!utf16 && bytes.subarray(0, 4096).includes(0)) return { code: 'not-text', message: 'This file is not text, so it is not CSV: export the orders from your shop or spreadsheet as CSV.' };
  return null;
}

export interface CsvOptions {
  /**
   * The header among the first rows, for exports that put lines before it (eBay); without it, or when no
   * row is one, the first row that is not blank.
   */
  isHeader?: (cells: readonly string[]) => boolean;
  /** Whether a file with this header is written without quoting (Amazon's reports): a " is then text. */
  unquoted?: (header: readonly string[]) => boolean;
}

/** Rows looked at for a header below lines of preamble. */
const HEADER_SEARCH_ROWS = 20;
/** A quote character no text holds, for files written without quoting. */
const NO_QUOTES = '\u0000';

export function parseCsv(bytes: Uint8Array, options: CsvOptions = {}): CsvResult {
  const binary = notText(bytes);
  if (binary) return { ok: false, error: binary };
  const decoded = decode(bytes);
  if (!decoded.ok) return decoded;
  let text = decoded.text;
  // Excel writes "sep=;" as a first line when asked to keep the separator with the file.
  const hint = /^sep=(.)\r?\n/i.exec(text);
  let skippedLines = 0;
  if (hint) {
    text = text.slice(hint[0].length);
    skippedLines = 1;
  }
  if (!text.trim()) return { ok: false, error: { code: 'empty', message: 'The file is empty: it needs a header row and at least one order row' } };
  const delimiter = hint?.[1] ?? detectDelimiter(text);
  // Said rather than guessed: papaparse's guess reads the first megabyte again for each parse.
  const newline = detectNewline(text);
  const preview = Papa.parse<string[]>(text, { delimiter, newline, header: false, skipEmptyLines: false, preview: HEADER_SEARCH_ROWS }).data;
  const headerAt = headerRow(preview, options.isHeader);
  const unquoted = options.unquoted?.(preview[headerAt] ?? []) ?? false;
  const parsed = Papa.parse<string[]>(text, { delimiter, newline, header: false, skipEmptyLines: false, ...(unquoted ? { quoteChar: NO_QUOTES } : {}) });
  const quoteError = parsed.errors.find((e) => e.type === 'Quotes');
  if (quoteError) return { ok: false, error: quotesError(text, quoteError, skippedLines) };
  const header = parsed.data[headerAt].map((name, i) => name.trim() || `Column ${i + 1}`);
  const records: CsvRecord[] = [];
  for (let index = headerAt + 1; index < parsed.data.length; index++) {
    const cells = parsed.data[index];
    // Blank lines still count as spreadsheet rows, so later row numbers match what the user sees.
    if (isBlank(cells)) continue;
    records.push({ row: index + 1, cells });
  }
  return { ok: true, value: { header, records, delimiter, encoding: decoded.encoding } };
}

const isBlank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');

/** The header's index among the first rows: the one `isHeader` knows, else the first that is not blank. */
function headerRow(rows: readonly string[][], isHeader?: (cells: readonly string[]) => boolean): number {
  const known = isHeader ? rows.findIndex((cells) => isHeader(cells)) : -1;
  if (known !== -1) return known;
  const first = rows.findIndex((cells) => !isBlank(cells));
  return first === -1 ? 0 : first;
}

type Decoded = { ok: true; text: string; encoding: string } | { ok: false; error: CsvError };

function decode(bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { ok: true, text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { ok: true, text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(body), encoding: 'utf-8' };
  } catch {
    const at = firstInvalidUtf8(body);
    const line = lineOfByte(body, at);
    const byte = body[at]?.toString(16).toUpperCase().padStart(2, '0');
    return {
      ok: false,
      error: {
        code: 'encoding',
        line,
        message: `The file is not UTF-8 text: byte 0x${byte} on line ${line} cannot be read. ` +
          'It was probably saved as Windows-1252 or Latin-1; in Excel choose "CSV UTF-8 (comma delimited)" and save again.',
      },
    };
  }
}

/** Offset of the first byte that breaks UTF-8; only run once decoding has already failed. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    // Overlong forms, surrogates and code points above U+10FFFF are invalid too.
    const second = bytes[i + 1];
    if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f) || (b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return i;
    i += need + 1;
  }
  return bytes.length;
}

function lineOfByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** The file's line ending, from the first line that ends outside quotes: CRLF, LF, or an old Mac's CR. */
export function detectNewline(text: string): '\r\n' | '\n' | '\r' {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34) quoted = !quoted;
    else if (!quoted && ch === 13) return text.charCodeAt(i + 1) === 10 ? '\r\n' : '\r';
    else if (!quoted && ch === 10) return '\n';
  }
  return '\n';
}

/** The separator that splits the header line most often, counting only outside quotes. */
export function detectDelimiter(text: string): string {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  // The header line: the first with a letter in it, past a blank line or a row of bare separators (eBay).
  const start = Math.max(0, text.search(/^.*\p{L}/mu));
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

function quotesError(text: string, error: Papa.ParseError, skippedLines: number): CsvError {
  const index = error.index ?? 0;
  let line = 1 + skippedLines;
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  const row = (error.row ?? 0) + 1;
  const message =
    error.code === 'MissingQuotes'
      ? `Line ${line}: a quoted field opened here is never closed (a " is missing), so the rest of the file cannot be read`
      : `Line ${line}: a quoted field has text after its closing quote; write "" for a quote inside a quoted field`;
  return { code: 'quotes', message, line, row };
}
