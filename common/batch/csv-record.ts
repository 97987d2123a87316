// What a CSV file reads as: its records, or the failure that stopped the reading. Apart from parse-csv.ts
// so that the code which only reads records does not load papaparse (whose types bring in Node's).

export interface CsvRecord {
  /** 1-based row as a spreadsheet shows it: the header is row 1, so the first record is row 2 */
  row: number;
  cells: string[];
}

export interface ParsedCsv {
  header: string[];
  records: CsvRecord[];
  delimiter: string;
  /** 'utf-8' or, for Excel's "Unicode text", 'utf-16le' / 'utf-16be' */
  encoding: string;
}

export interface CsvError {
  code: 'encoding' | 'quotes' | 'empty' | 'not-text' | 'layout';
  message: string;
  /** the line of the file (as a text editor counts it) where the problem is */
  line?: number;
  row?: number;
}

export type CsvResult = { ok: true; value: ParsedCsv } | { ok: false; error: CsvError };
