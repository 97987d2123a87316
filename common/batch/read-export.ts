// A dropped file as a batch reads it: CSV or TSV bytes, the platform whose export it is (by its header, or
// as the user named it), and that platform's columns matched and completed. Pure: the app, the CLI and the
// bench read files through this one function.
import type { ColumnMapping } from './mapping.ts';
import { parseCsv, type CsvError, type CsvRecord } from './parse-csv.ts';
import { adaptExport, missingColumns, platformById, recognise, type LayoutName, type Platform } from './platforms/index.ts';

export type { LayoutName };

export interface ExportFile {
  header: string[];
  records: CsvRecord[];
  delimiter: string;
  encoding: string;
  platform: Platform | null;
  /** the platform's matching, or null for a file matched by its column names */
  mapping: ColumnMapping | null;
  trailerRows: number;
}

export type ExportResult = { ok: true; value: ExportFile } | { ok: false; error: CsvError };

export function readExport(bytes: Uint8Array, layout?: LayoutName): ExportResult {
  const named = layout && layout !== 'csv' ? platformById(layout) : null;
  const fits = (cells: readonly string[]) => (named ? missingColumns(named, cells).length === 0 : layout !== 'csv' && recognise(cells) !== null);
  const parsed = parseCsv(bytes, { isHeader: fits, unquoted: (header) => (named ?? (layout === 'csv' ? null : recognise(header)))?.unquoted ?? false });
  if (!parsed.ok) return parsed;
  const { header, records, delimiter, encoding } = parsed.value;
  if (named) {
    const missing = missingColumns(named, header);
    if (missing.length) return { ok: false, error: { code: 'layout', message: `This is not ${/^[aeiou]/i.test(named.label) ? "an" : "a"} ${named.label} as PrintDesk knows it: it has no ${missing.map((m) => `"${m}"`).join(', ')} column${missing.length === 1 ? '' : 's'}` } };
  }
  const platform = named ?? (layout === 'csv' ? null : recognise(header));
  if (!platform) return { ok: true, value: { header, records, delimiter, encoding, platform: null, mapping: null, trailerRows: 0 } };
  const adapted = adaptExport(platform, header, records);
  return { ok: true, value: { ...adapted, delimiter, encoding, platform } };
}
