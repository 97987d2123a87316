// What PrintDesk knows of a shop platform's order export: how to recognise it by its header, which of its
// columns feed which order field, and which of its orders are still open. Pure: no DOM, no Node.
import type { BatchField } from '../mapping.ts';

export const PLATFORM_IDS = ['shopify', 'etsy-orders', 'etsy-items', 'amazon', 'ebay'] as const;
export type PlatformId = (typeof PLATFORM_IDS)[number];

/** What the user may name a file's layout: a platform, or `csv` for PrintDesk's own columns (or any other). */
export const LAYOUT_NAMES = ['csv', ...PLATFORM_IDS] as const;
export type LayoutName = (typeof LAYOUT_NAMES)[number];

/** Why an order of an export is not taken by default; the user may include each kind. */
export const NOT_OPEN = ['unpaid', 'fulfilled', 'cancelled', 'refunded'] as const;
export type NotOpen = (typeof NOT_OPEN)[number];

export const NOT_OPEN_LABELS: Record<NotOpen, string> = {
  unpaid: 'not paid',
  fulfilled: 'already fulfilled',
  cancelled: 'cancelled',
  refunded: 'refunded',
};

/** A line of an export that is no line item to print: eBay's order summary, or a line already sent out. */
export type LineKind = 'item' | 'summary' | 'fulfilled';

/** The cells of an order, by the platform's header names. */
export interface OrderCells {
  /** the first non-empty cell of the column among the order's rows (order-level cells sit on the first) */
  first(column: string): string;
  /** the column's cells of every row of the order */
  all(column: string): string[];
}

export interface Platform {
  id: PlatformId;
  /** the platform's own name: "Shopify" */
  name: string;
  /** what the review calls the file: "Shopify orders export" */
  label: string;
  /** where in the platform it is downloaded, for the Batch view's help */
  whereToExport: string;
  /** a row of the file is one of these */
  rowNoun: 'line item' | 'order';
  /** header names that all appear in this export and together in no other */
  signature: readonly string[];
  /** for each field, the columns that feed it, the first present wins */
  columns: Partial<Record<BatchField, readonly string[]>>;
  /** one column holding the recipient's whole name, split into first and last name on import */
  fullName?: string;
  /** address lines joined into the street address on import */
  street?: readonly string[];
  /** fields the platform never exports: the Batch view offers one value for every row */
  missing?: readonly BatchField[];
  /** Amazon's reports are tab-separated without quoting: a " in a product name is text */
  unquoted?: boolean;
  /** one cell naming several SKUs (Etsy's sold orders), the quantity then from the order's item count */
  skuList?: boolean;
  /** lines around the data that are not rows (eBay's "N record(s) downloaded") */
  isTrailer?(cells: readonly string[]): boolean;
  notOpen(order: OrderCells): NotOpen | null;
  lineKind?(cell: (column: string) => string): LineKind;
}
