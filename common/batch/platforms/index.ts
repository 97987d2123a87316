// The platforms PrintDesk recognises by their export's header, and the columns it adds on import: the
// recipient's name split in two, the address lines joined, so each row shows (and can correct) what is sent.
import { normalizeHeader, type BatchField, type ColumnMapping } from '../mapping.ts';
import type { CsvRecord } from '../csv-record.ts';
import { splitName } from '../person-name.ts';
import { withoutTextMark } from '../row-values.ts';
import { amazon } from './amazon.ts';
import { ebay } from './ebay.ts';
import { etsyItems, etsyOrders } from './etsy.ts';
import { shopify } from './shopify.ts';
import type { Platform, PlatformId } from './types.ts';

export * from './types.ts';

export const PLATFORMS: readonly Platform[] = [shopify, etsyItems, etsyOrders, amazon, ebay];

/** Names of the columns PrintDesk adds, as the review shows them. */
export const ADDED_COLUMNS = { firstName: 'First name', lastName: 'Last name', streetAddress: 'Street address' } as const;

export function platformById(id: string | null | undefined): Platform | null {
  return PLATFORMS.find((p) => p.id === id) ?? null;
}

/** Each header name's column, by its normalised name (the first of equals). */
export function columnIndex(header: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  header.forEach((name, column) => {
    const key = normalizeHeader(name);
    if (!index.has(key)) index.set(key, column);
  });
  return index;
}

/** The platform whose export has this header, or null for a file of another layout. */
export function recognise(header: readonly string[]): Platform | null {
  const index = columnIndex(header);
  return PLATFORMS.find((p) => p.signature.every((name) => index.has(normalizeHeader(name)))) ?? null;
}

/** The header names of a platform's signature this header lacks (for a layout given by hand). */
export function missingColumns(platform: Platform, header: readonly string[]): string[] {
  const index = columnIndex(header);
  return platform.signature.filter((name) => !index.has(normalizeHeader(name)));
}

export interface AdaptedExport {
  header: string[];
  records: CsvRecord[];
  mapping: ColumnMapping;
  /** rows dropped as the export's own trailer (eBay's record count and seller id) */
  trailerRows: number;
}

/**
 * A platform's export as a batch reads it: its own columns, then the name split and the street joined where
 * the platform gives them otherwise (kept if a file exported by PrintDesk already has them), each field
 * matched to its column.
 */
export function adaptExport(platform: Platform, header: readonly string[], records: readonly CsvRecord[]): AdaptedExport {
  const index = columnIndex(header);
  const at = (name: string) => index.get(normalizeHeader(name));
  const mapping: ColumnMapping = {};
  for (const [field, names] of Object.entries(platform.columns) as [BatchField, readonly string[]][]) {
    const column = names.map(at).find((c) => c !== undefined);
    if (column !== undefined) mapping[field] = column;
  }
  const added: string[] = [];
  const derive: Array<(cells: readonly string[]) => string[]> = [];
  const addColumns = (fields: readonly (keyof typeof ADDED_COLUMNS)[], make: (cells: readonly string[]) => string[]) => {
    const existing = fields.map((f) => at(ADDED_COLUMNS[f]));
    if (existing.every((c) => c !== undefined)) return fields.forEach((f, i) => (mapping[f] = existing[i]));
    fields.forEach((f, i) => (mapping[f] = header.length + added.length + i));
    added.push(...fields.map((f) => ADDED_COLUMNS[f]));
    derive.push(make);
  };
  const fullName = platform.fullName === undefined ? undefined : at(platform.fullName);
  if (fullName !== undefined && (mapping.firstName === undefined || mapping.lastName === undefined)) {
    addColumns(['firstName', 'lastName'], (cells) => {
      const { firstName, lastName } = splitName(cells[fullName] ?? '');
      return [firstName, lastName];
    });
  }
  const lines = (platform.street ?? []).map(at).filter((c) => c !== undefined);
  if (lines.length > 0 && mapping.streetAddress === undefined) {
    addColumns(['streetAddress'], (cells) => [lines.map((c) => (cells[c] ?? '').trim()).filter(Boolean).join(', ')]);
  }
  const kept = platform.isTrailer ? records.filter((r) => !platform.isTrailer?.(r.cells)) : [...records];
  const width = header.length;
  // The ' Excel (and Shopify) put before a zip code or phone number to keep it text is no part of it: the
  // review shows the value as it is sent.
  const marked = (['postal', 'phoneNumber', 'sku'] as const).flatMap((f) => (mapping[f] === undefined ? [] : [[f, mapping[f]] as const]));
  // The parsed rows are this function's to change: completed in place, a file of 15,000 rows copies nothing.
  for (const { cells } of kept as CsvRecord[]) {
    // Cells past the header name nothing the orders read; the columns added follow the header's.
    if (cells.length > width) cells.length = width;
    while (cells.length < width) cells.push('');
    for (const [field, column] of marked) if (cells[column].startsWith("'")) cells[column] = withoutTextMark(field, cells[column]);
    for (const make of derive) cells.push(...make(cells));
  }
  return { header: [...header, ...added], records: kept as CsvRecord[], mapping, trailerRows: records.length - kept.length };
}

export type { PlatformId };
