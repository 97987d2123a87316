// The Orders table's rows, filters and sort, as plain functions of the drafts: what each column shows and
// sorts by is worked out once per version of an order, so that sorting and filtering ten thousand orders
// compares prepared keys rather than formatting each order again.
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { countryName } from '../../common/orders/countries.ts';
import { formatMoney, formatStamp, shippingName } from './format.ts';
import { ruleName } from './shipping-rules.ts';
import { fold, orderHaystack, searchWords } from './order-search.ts';
import { standing, type OrderStanding } from './order-states.ts';

export const SORT_KEYS = ['reference', 'recipient', 'country', 'models', 'method', 'price', 'status', 'placedAt', 'batch'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export interface Sort {
  key: SortKey;
  dir: 'asc' | 'desc';
}

/** The status tabs: groups of where an order stands. */
export const TABS = [
  { id: 'all', label: 'All' },
  { id: 'draft', label: 'Drafts' },
  { id: 'outbox', label: 'Outbox' },
  { id: 'attention', label: 'Needs attention' },
  { id: 'placed', label: 'Placed' },
] as const;
export type Tab = (typeof TABS)[number]['id'];

export interface OrderFilters {
  tab: Tab;
  /** a service status of placed orders ("shipped"), or '' for any */
  status: string;
  /** a batch id, NO_BATCH for orders made one at a time, or '' for any */
  batch: string;
  /** alpha-2, or '' for any */
  country: string;
  /** which days: any, a span up to today, or `from`…`to` (custom) */
  range: DateRange;
  /** days, YYYY-MM-DD, inclusive, in the user's time zone; '' for open (custom range only) */
  from: string;
  to: string;
  text: string;
}

export const DATE_RANGES = [
  { id: 'any', label: 'Any day' },
  { id: 'today', label: 'Today' },
  { id: 'week', label: 'Last 7 days' },
  { id: 'month', label: 'Last 30 days' },
  { id: 'custom', label: 'Between…' },
] as const;
export type DateRange = (typeof DATE_RANGES)[number]['id'];

/** The first and last day a range takes in, as of `today` (YYYY-MM-DD; '' for open). */
export function rangeDays(filters: Pick<OrderFilters, 'range' | 'from' | 'to'>, today = new Date()): { from: string; to: string } {
  const daysBack = (n: number) => localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - n).toISOString());
  switch (filters.range) {
    case 'any':
      return { from: '', to: '' };
    case 'today':
      return { from: daysBack(0), to: '' };
    case 'week':
      return { from: daysBack(6), to: '' };
    case 'month':
      return { from: daysBack(29), to: '' };
    case 'custom':
      return { from: filters.from, to: filters.to };
  }
}

export const NO_BATCH = 'none';

export const noFilters = (tab: Tab = 'all'): OrderFilters => ({ tab, status: '', batch: '', country: '', range: 'any', from: '', to: '', text: '' });

export interface OrderRow {
  draft: Draft;
  id: string;
  reference: string;
  recipient: string;
  city: string;
  countryCode: string;
  country: string;
  models: string;
  method: string;
  /** cents: what the service charged once placed, else the price as quoted */
  price: number | null;
  currency: string;
  /** when the price was quoted, for an order not placed yet */
  quotedAt: string | null;
  standing: OrderStanding;
  placedAt: string | null;
  batch: string;
  /** names the library gave models the order names by id only, folded, for the search */
  libraryNames: string;
  // Made when first needed (dayOf, haystackOf, sortKey), or in idle moments before (warmRows): a table of
  // ten thousand rows opens without making what no filter or sort has asked for yet.
  /** the day the date filter reads: placed, or written for an order not placed */
  day?: string;
  haystack?: string;
  keys: Partial<Record<SortKey, string | number>>;
  /** what its cells read (money and dates in the user's locale), made when first drawn */
  text?: { price: string; placed: string; placedDay: string };
}

/** Numbers inside text compare as numbers ("SHOP-9" before "SHOP-10"), case and accents aside. */
const textKey = (text: string) => fold(text).replace(/\d+/g, (digits) => digits.padStart(12, '0'));

/** The local day of an ISO time, as YYYY-MM-DD. */
export function localDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** Names of models that orders give by id only, as the library told them. */
export type ModelNames = ReadonlyMap<string, string>;
const NO_NAMES: ModelNames = new Map();

/** "Moon ×2, Cube": each model by name where the order or the library knows it, else the start of its id. */
export function modelsLabel(draft: Draft, names: ModelNames = NO_NAMES): string {
  return draft.models.map((line) => `${line.name ?? names.get(line.modelId) ?? `${line.modelId.slice(0, 8)}…`}${line.quantity > 1 ? ` ×${line.quantity}` : ''}`).join(', ');
}

/** "orders.csv · row 14", or rows 14–16 for an order of several rows. */
export function batchLabel(draft: Draft): string {
  const batch = draft.batch;
  if (!batch) return '';
  const rows = batch.rows;
  const where = rows.length === 0 ? '' : rows.length === 1 ? ` · row ${rows[0]}` : ` · rows ${rows[0]}–${rows[rows.length - 1]}`;
  return `${batch.fileName}${where}`;
}

const rows = new WeakMap<Draft, { names: number; row: OrderRow }>();

/**
 * The table's row of a draft, made once per version of it (a change arrives as a new object), and again for
 * one with models named by id only once the library has named more models (names only grow).
 */
export function orderRow(draft: Draft, names: ModelNames = NO_NAMES): OrderRow {
  const unnamed = draft.models.filter((line) => !line.name);
  const version = unnamed.length ? names.size : -1;
  const known = rows.get(draft);
  if (known && known.names === version) return known.row;
  const r = draft.recipient;
  const recipient = `${r.firstName} ${r.lastName}`.trim();
  const country = r.country ? countryName(r.country) : '';
  const method = draft.shippingMethod ? shippingName(draft.shippingMethod) : draft.shippingRule ? ruleName(draft.shippingRule) : '';
  const price = draft.order?.shippingPrice ?? draft.shippingMethod?.price ?? null;
  const placedAt = draft.state === 'placed' ? (draft.order?.createdAt ?? null) : null;
  const models = modelsLabel(draft, names);
  const batch = batchLabel(draft);
  const state = standing(draft);
  const row: OrderRow = {
    draft,
    id: draft.id,
    reference: draft.orderReference,
    recipient,
    city: r.city.trim(),
    countryCode: r.country.toUpperCase(),
    country,
    models,
    method,
    price,
    currency: draft.order?.currency ?? 'EUR',
    quotedAt: draft.state === 'placed' ? null : (draft.shippingMethod?.quotedAt ?? null),
    standing: state,
    placedAt,
    batch,
    libraryNames: unnamed.length ? fold(unnamed.map((line) => names.get(line.modelId) ?? '').join(' ')) : '',
    keys: {},
  };
  rows.set(draft, { names: version, row });
  return row;
}

/** What the row's price and date cells read, made once: a row scrolled past again reads them from here. */
export const cellText = (row: OrderRow): NonNullable<OrderRow['text']> =>
  (row.text ??= {
    price: row.price === null ? '' : formatMoney(row.price, row.currency),
    placed: row.placedAt ? formatStamp(row.placedAt) : '',
    placedDay: row.placedAt ? formatStamp(row.placedAt, { time: false }) : '',
  });

export const dayOf = (row: OrderRow): string => (row.day ??= localDay(row.placedAt ?? row.draft.createdAt));

export const haystackOf = (row: OrderRow): string => (row.haystack ??= row.libraryNames ? `${orderHaystack(row.draft)} ${row.libraryNames}` : orderHaystack(row.draft));

/** What each column sorts by. Orders without a price or a date sort after those with one, whichever way. */
const SORT_BY: Record<SortKey, (row: OrderRow) => string | number> = {
  reference: (row) => textKey(row.reference),
  recipient: (row) => textKey(row.recipient),
  country: (row) => textKey(row.country),
  models: (row) => textKey(row.models),
  method: (row) => textKey(row.method),
  price: (row) => row.price ?? Number.NaN,
  status: (row) => row.standing.rank,
  placedAt: (row) => (row.placedAt ? Date.parse(row.placedAt) : Number.NaN),
  batch: (row) => (row.batch ? textKey(`${row.draft.batch?.importedAt ?? ''} ${row.batch}`) : ''),
};

export function sortKey(row: OrderRow, key: SortKey): string | number {
  let value = row.keys[key];
  if (value === undefined) row.keys[key] = value = SORT_BY[key](row);
  return value;
}

interface IdleDeadline {
  timeRemaining(): number;
}
type Idle = (work: (deadline: IdleDeadline) => void) => number;

/**
 * Makes the rows of these orders, what they are found by and sorted by, in the page's idle moments, a few
 * at a time, so that the table opens, sorts and filters at once on ten thousand orders rather than making
 * them all in one long task when first asked. Returns a stop.
 */
export function warmRows(drafts: readonly Draft[], names: ModelNames = NO_NAMES): () => void {
  const idle: Idle = (globalThis as { requestIdleCallback?: Idle }).requestIdleCallback ?? ((work) => setTimeout(() => work({ timeRemaining: () => 8 }), 30) as unknown as number);
  let next = 0;
  let stopped = false;
  const step = (deadline: IdleDeadline) => {
    while (!stopped && next < drafts.length && deadline.timeRemaining() > 4) {
      for (const end = Math.min(drafts.length, next + 25); next < end; next++) {
        const row = orderRow(drafts[next], names);
        haystackOf(row);
        for (const key of SORT_KEYS) sortKey(row, key);
      }
    }
    if (!stopped && next < drafts.length) idle(step);
  };
  idle(step);
  return () => void (stopped = true);
}

const IN_TAB: Record<Tab, (row: OrderRow) => boolean> = {
  all: () => true,
  draft: (row) => row.draft.state === 'draft',
  outbox: (row) => row.draft.state === 'queued' || row.draft.state === 'sending',
  attention: (row) => row.draft.state === 'rejected' || row.draft.state === 'needs-attention',
  placed: (row) => row.draft.state === 'placed',
};

export const inTab = (tab: Tab, row: OrderRow) => IN_TAB[tab](row);

/** A filter's test of a row, with what it needs worked out once for all rows (the words, the days). */
export function rowFilter(filters: OrderFilters, today = new Date()): (row: OrderRow) => boolean {
  const words = searchWords(filters.text);
  const days = rangeDays(filters, today);
  return (row) => {
    if (filters.status && row.draft.order?.status !== filters.status) return false;
    if (filters.batch && (filters.batch === NO_BATCH ? !!row.draft.batch : row.draft.batch?.batchId !== filters.batch)) return false;
    if (filters.country && row.countryCode !== filters.country) return false;
    if (days.from && dayOf(row) < days.from) return false;
    if (days.to && dayOf(row) > days.to) return false;
    if (words.length === 0) return true;
    const haystack = haystackOf(row);
    return words.every((word) => haystack.includes(word));
  };
}

/** Whether any filter other than the tab is set. */
export const filtering = (filters: OrderFilters) => !!(filters.status || filters.batch || filters.country || filters.range !== 'any' || filters.text.trim());

/** Among equals: the newest first, then by reference, so that one set of orders always reads in one order. */
const tie = (a: OrderRow, b: OrderRow) => (a.draft.createdAt < b.draft.createdAt ? 1 : a.draft.createdAt > b.draft.createdAt ? -1 : a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0);

/**
 * Sorted by one column, empty cells last either way. The comparison is made for the column's kind of key
 * (numbers or prepared text) once, not tested for each of the ~140,000 comparisons ten thousand rows take.
 */
export function sortRows(list: readonly OrderRow[], sort: Sort): OrderRow[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  const key = sort.key;
  for (const row of list) sortKey(row, key);
  const numeric = NUMERIC_KEYS.has(key);
  const compare = numeric
    ? (a: OrderRow, b: OrderRow) => {
        const x = a.keys[key] as number;
        const y = b.keys[key] as number;
        if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? tie(a, b) : Number.isNaN(x) ? 1 : -1;
        return x === y ? tie(a, b) : (x - y) * sign;
      }
    : (a: OrderRow, b: OrderRow) => {
        const x = a.keys[key] as string;
        const y = b.keys[key] as string;
        if (x === y) return tie(a, b);
        if (x === '' || y === '') return x === '' ? 1 : -1;
        return x < y ? -sign : sign;
      };
  return [...list].sort(compare);
}

const NUMERIC_KEYS: ReadonlySet<SortKey> = new Set(['price', 'status', 'placedAt']);

/** Orders on each tab among these rows, in one pass. */
export function tabCounts(list: readonly OrderRow[]): Record<Tab, number> {
  const counts: Record<Tab, number> = { all: list.length, draft: 0, outbox: 0, attention: 0, placed: 0 };
  for (const row of list) {
    const state = row.draft.state;
    if (state === 'draft') counts.draft++;
    else if (state === 'queued' || state === 'sending') counts.outbox++;
    else if (state === 'rejected' || state === 'needs-attention') counts.attention++;
    else counts.placed++;
  }
  return counts;
}

/** What a column sorts first by when its header is clicked: dates, prices and progress newest or highest first. */
export const firstDirection = (key: SortKey): Sort['dir'] => (key === 'placedAt' || key === 'price' ? 'desc' : 'asc');
