// The Orders table's columns: their headers, widths and which a narrow window leaves out (the order's own
// page shows everything).
import type { SortKey } from './order-table.ts';

export interface OrderColumn {
  key: SortKey;
  label: string;
  /** its header in a narrow table */
  compactLabel?: string;
  /** a CSS grid track */
  width: string;
  /** its track in a narrow table */
  compactWidth?: string;
  numeric?: boolean;
  /** left out when the table is narrower than WIDE_PX */
  wideOnly?: boolean;
  /** left out, too, when it is narrower than ROOMY_PX */
  roomyOnly?: boolean;
}

export const ORDER_COLUMNS: readonly OrderColumn[] = [
  { key: 'reference', label: 'Reference', width: 'minmax(88px, 1fr)', compactWidth: 'minmax(92px, 1fr)' },
  { key: 'recipient', label: 'Recipient', width: 'minmax(116px, 1.5fr)', compactWidth: 'minmax(96px, 1.5fr)' },
  { key: 'country', label: 'Country', width: 'minmax(100px, 0.8fr)', compactWidth: '74px' },
  { key: 'models', label: 'Models', width: 'minmax(88px, 1.1fr)', compactWidth: 'minmax(64px, 1fr)' },
  { key: 'method', label: 'Method', width: 'minmax(88px, 1fr)', wideOnly: true },
  // A waiting order's price carries its quote's age ("€4.30 <1 min").
  { key: 'price', label: 'Price', width: 'minmax(112px, 0.7fr)', compactWidth: 'minmax(84px, 0.6fr)', numeric: true },
  // "Needs attention" and "In production" read whole; at 900 px too.
  { key: 'status', label: 'Status', width: 'minmax(148px, 0.9fr)', compactWidth: 'minmax(142px, 0.9fr)' },
  { key: 'placedAt', label: 'Placed at', compactLabel: 'Placed', width: 'minmax(132px, 0.9fr)', compactWidth: 'minmax(76px, 0.7fr)' },
  { key: 'batch', label: 'Batch', width: 'minmax(80px, 1fr)', wideOnly: true, roomyOnly: true },
];

/** Below this width the table leaves out the columns marked wideOnly, names countries by their code and days without the time. */
export const WIDE_PX = 900;
/**
 * Below this width the batch is left out too (its filter and each order's page still say it): in a window
 * 1280 wide every column of nine was cut short, the time of day dropped from "Placed at" and "Needs
 * attention" shown as "Needs atten…".
 */
export const ROOMY_PX = 1180;

/** The columns a table this wide shows. */
export function columnsFor(width: number): readonly OrderColumn[] {
  if (width < WIDE_PX) return ORDER_COLUMNS.filter((c) => !c.wideOnly);
  return width < ROOMY_PX ? ORDER_COLUMNS.filter((c) => !c.roomyOnly) : ORDER_COLUMNS;
}

/** The selection box's column, then the others. */
export const gridTemplate = (columns: readonly OrderColumn[], compact: boolean) => ['32px', ...columns.map((c) => (compact ? (c.compactWidth ?? c.width) : c.width))].join(' ');
