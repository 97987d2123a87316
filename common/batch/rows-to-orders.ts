// CSV records → orders. Rows sharing an orderReference form one order with several models (rows
// without one have one made from their content: see references.ts). Every problem names its row,
// column and cause. What the service would refuse is an error and holds the order back; what only
// looks wrong to us (a postal code's shape, a state) is a warning, and the order goes as written.
import { restoreCell } from '../csv-text.ts';
import { recipientWarnings, validateRecipient, type Recipient } from '../orders/validation.ts';
import { readCountry } from './country-names.ts';
import { CONSTANT_FIELDS, normalizeHeader, type BatchField, type ColumnMapping, type ConstantField, type FieldConstants } from './mapping.ts';
import { linesOf } from './order-lines.ts';
import type { CsvRecord } from './csv-record.ts';
import { columnIndex } from './platforms/index.ts';
import { NOT_OPEN_LABELS, type NotOpen, type OrderCells, type Platform } from './platforms/types.ts';
import type { BatchError, ProblemKind, SkipReason } from './problems.ts';
import type { ReferencedRecord } from './references.ts';
import { CONTROL_MESSAGE, hasControlCharacters, idList, recipientText, type ModelLookup } from './row-values.ts';
import { describeChoice, parseShippingChoice, type ShippingChoice } from './shipping-rule.ts';
import type { SkuLookup } from './sku-match.ts';

export type { ModelLookup };

export { PROBLEM_KINDS, type BatchError, type ProblemKind, type SkipReason } from './problems.ts';

export interface BatchModelLine {
  modelId: string;
  quantity: number;
  name?: string;
}

export interface BatchOrder {
  reference: string;
  /** the spreadsheet rows this order was read from, in file order */
  rows: number[];
  recipient: Recipient;
  models: BatchModelLine[];
  orderContent: { ConfigIds: string[]; ExternalConfigIds: string[]; StockIds: string[] };
  /** null: the batch's default applies */
  shipping: ShippingChoice | null;
  /** where the shipping choice was read, for errors found once quotes are in */
  shippingAt: { row: number; column: string | null };
  /** why the order is not taken, or null when it is */
  skipped: { reason: SkipReason; message: string } | null;
  /** every problem, warning and note of the order's rows */
  errors: BatchError[];
}

export interface RowsInput {
  header: readonly string[];
  records: readonly ReferencedRecord[];
  mapping: ColumnMapping;
  /** the project's models by lower-case name; without it model names cannot be resolved */
  models?: ModelLookup;
  /** the project's SKU table and its models by file name; without it SKUs cannot be resolved */
  skus?: SkuLookup;
  /** one value for every row that has none */
  constants?: FieldConstants;
  /** the platform whose export this is: which orders are open, which lines are items */
  platform?: Platform | null;
  /** orders that are not open but taken all the same, by why */
  include?: readonly NotOpen[];
}

const MAX_REFERENCE = 100;
const RECIPIENT_FIELDS = ['firstName', 'lastName', 'streetAddress', 'postal', 'city', 'country', 'countryState', 'phoneNumber', 'email'] as const;

/** The orders that hold back nothing of the service's: no error among their rows, and taken. */
export const isSendable = (order: BatchOrder) => !order.skipped && !order.errors.some((e) => e.kind === 'error');

export function rowsToOrders(input: RowsInput): { orders: BatchOrder[]; errors: BatchError[] } {
  const groups = new Map<string, CsvRecord[]>();
  for (const record of input.records) {
    const group = groups.get(record.reference);
    if (group) group.push(record);
    else groups.set(record.reference, [record]);
  }
  const ctx = contextOf(input);
  const orders: BatchOrder[] = [];
  for (const [reference, records] of groups) orders.push(toOrder(ctx, reference, records));
  return { orders, errors: orders.flatMap((order) => order.errors) };
}

/**
 * What the readers of an order share: how to read a cell, and where problems go. Made once for the file
 * (a file of 10,000 orders makes no closures per order); `records` and `errors` are the order's at hand.
 */
export interface Context {
  input: RowsInput;
  records: CsvRecord[];
  errors: BatchError[];
  cell: (record: CsvRecord, field: BatchField) => string;
  /** a cell by the platform's header name */
  named: (record: CsvRecord, column: string) => string;
  columnOf: (field: BatchField) => string | null;
  fail: Fail;
  /** the order's cells by the platform's names (order-level ones sit on its first row) */
  order: OrderCells;
}

export type Fail = (row: number, field: BatchField | null, message: string, kind?: ProblemKind, column?: string | null) => void;

function contextOf(input: RowsInput): Context {
  const { header, mapping } = input;
  const byName = columnIndex(header);
  const known = new Map<string, number | undefined>();
  const indexOf = (column: string) => {
    if (!known.has(column)) known.set(column, byName.get(normalizeHeader(column)));
    return known.get(column);
  };
  const columnOf = (field: BatchField) => (mapping[field] === undefined ? null : (header[mapping[field] as number] ?? null));
  const ctx: Context = {
    input,
    records: [],
    errors: [],
    columnOf,
    cell: (record, field) => {
      const at = mapping[field];
      if (at === undefined) return '';
      const value = record.cells[at];
      return value ? restoreCell(value.trim()) : '';
    },
    named: (record, column) => {
      const at = indexOf(column);
      return at === undefined ? '' : (record.cells[at] ?? '').trim();
    },
    fail: (row, field, message, kind = 'error', column = field && columnOf(field)) => void ctx.errors.push({ row, column, field, message, kind }),
    order: {
      first: (column) => {
        for (const record of ctx.records) {
          const value = ctx.named(record, column);
          if (value) return value;
        }
        return '';
      },
      all: (column) => ctx.records.map((r) => ctx.named(r, column)),
    },
  };
  return ctx;
}

function toOrder(ctx: Context, reference: string, records: CsvRecord[]): BatchOrder {
  const { input, fail } = ctx;
  const { header } = input;
  const errors: BatchError[] = [];
  ctx.records = records;
  ctx.errors = errors;
  const rows = records.map((r) => r.row);

  const notOpen = input.platform ? input.platform.notOpen(ctx.order) : null;
  if (notOpen && !input.include?.includes(notOpen)) {
    const message = `Not taken: ${NOT_OPEN_LABELS[notOpen]} on ${input.platform?.name} (include these orders to send them)`;
    const skipped = { reason: notOpen, message };
    skip(errors, records, skipped);
    const shippingAt = { row: records[0].row, column: null };
    return { reference, rows, recipient: blankRecipient(), models: [], orderContent: contentOf(ctx), shipping: null, shippingAt, skipped, errors };
  }
  for (const record of records) {
    for (let index = header.length; index < record.cells.length; index++) {
      if (record.cells[index].trim()) fail(record.row, null, 'This cell has no column name in the header row: add a name or remove the value', 'error', `Column ${index + 1}`);
    }
  }
  if (reference.length > MAX_REFERENCE) fail(records[0].row, 'orderReference', `An order reference has at most ${MAX_REFERENCE} characters`);
  const recipient = recipientOf(ctx);
  const { models, skipped } = linesOf(ctx);
  const orderContent = contentOf(ctx);
  const { shipping, shippingAt } = shippingOf(ctx);
  if (skipped) {
    // Nothing of it is sent: what would hold it back, or only warn, does not matter; what was read does.
    errors.splice(0, errors.length, ...errors.filter((e) => e.kind === 'note'));
    skip(errors, records, skipped);
  }
  // Row by row, and left to right within a row, as the user reads the sheet.
  if (errors.length > 1) {
    const position = (e: BatchError) => (e.column === null ? -1 : header.indexOf(e.column));
    errors.sort((a, b) => a.row - b.row || position(a) - position(b));
  }
  return { reference, rows, recipient, models, orderContent, shipping, shippingAt, skipped, errors };
}

/** The order's config, external config and stock ids, from every row that gives some. */
function contentOf({ input, records, cell }: Context): BatchOrder['orderContent'] {
  const { mapping } = input;
  // Most files have none of these columns: one shared, frozen empty content rather than three arrays an order.
  if (mapping.configIds === undefined && mapping.externalConfigIds === undefined && mapping.stockIds === undefined) return NO_CONTENT;
  const ids = (field: BatchField) => (mapping[field] === undefined ? [] : [...new Set(records.flatMap((r) => idList(cell(r, field))))]);
  return { ConfigIds: ids('configIds'), ExternalConfigIds: ids('externalConfigIds'), StockIds: ids('stockIds') };
}

const NO_CONTENT: BatchOrder['orderContent'] = Object.freeze({ ConfigIds: Object.freeze([]) as unknown as string[], ExternalConfigIds: Object.freeze([]) as unknown as string[], StockIds: Object.freeze([]) as unknown as string[] }) as BatchOrder['orderContent'];

/** Every row of an order not taken says why. */
function skip(errors: BatchError[], records: readonly CsvRecord[], { reason, message }: { reason: SkipReason; message: string }) {
  for (const record of records) errors.push({ row: record.row, column: null, field: null, message, kind: 'skip', reason });
}

const blankRecipient = (): Recipient => ({ firstName: '', lastName: '', streetAddress: '', postal: '', city: '', country: '', countryState: '', phoneNumber: '', email: '' });

/**
 * The first row that gives a recipient field decides it; a later row may leave it blank (Shopify writes the
 * order's cells on its first line item only) but not contradict it. A field no row gives takes the value
 * given for every row, if there is one.
 */
function recipientOf({ input, records, cell, columnOf, fail }: Context): Recipient {
  const recipient = blankRecipient();
  const source = { ...NO_SOURCE };
  let unreadable: Set<string> | null = null;
  for (const field of RECIPIENT_FIELDS) {
    source[field] = records[0].row;
    for (const record of records) {
      const raw = cell(record, field);
      if (!raw) continue;
      const text = recipientText(field, raw);
      if (hasControlCharacters(text)) {
        fail(record.row, field, CONTROL_MESSAGE);
        (unreadable ??= new Set()).add(field);
      } else if (!recipient[field]) [recipient[field], source[field]] = [text, record.row];
      else if (text !== recipient[field]) fail(record.row, field, `Differs from row ${source[field]} of the same order ("${recipient[field]}")`);
    }
  }
  const constants = input.constants;
  if (constants) for (const field of CONSTANT_FIELDS) if (!recipient[field] && !unreadable?.has(field)) recipient[field] = constants[field]?.trim() ?? '';
  const country = readCountry(recipient.country);
  if (!country.ok) {
    fail(source.country, 'country', country.message);
    (unreadable ??= new Set()).add('country');
  } else {
    if (country.readFrom) fail(source.country, 'country', `"${country.readFrom}" read as ${country.code}`, 'note');
    recipient.country = country.code;
  }
  said(fail, columnOf, constants, unreadable, source, 'error', validateRecipient(recipient));
  said(fail, columnOf, constants, unreadable, source, 'warning', recipientWarnings(recipient));
  return recipient;
}

/** Each rule's message on the row that gave the field, saying where a value not from a column came from. */
function said(fail: Fail, columnOf: Context['columnOf'], constants: FieldConstants | undefined, unreadable: Set<string> | null, source: Record<keyof Recipient, number>, kind: ProblemKind, found: Record<string, string>) {
  for (const field in found) {
    if (unreadable?.has(field)) continue;
    const key = field as keyof Recipient;
    const given = (CONSTANT_FIELDS as readonly string[]).includes(key) && constants?.[key as ConstantField]?.trim();
    const where = columnOf(key) ? '' : given ? ' (the value given for every row)' : ' (the file has no column for it)';
    fail(source[key], key, `${found[field]}${where}`, kind);
  }
}

const NO_SOURCE: Record<keyof Recipient, number> = { firstName: 0, lastName: 0, streetAddress: 0, postal: 0, city: 0, country: 0, countryState: 0, phoneNumber: 0, email: 0 };

/** One shipping choice per order, from an id/rule column or a carrier + method pair. */
function shippingOf({ records, cell, columnOf, fail }: Context) {
  let shipping: ShippingChoice | null = null;
  let shippingAt = { row: records[0].row, column: columnOf('shippingMethod') ?? columnOf('carrier') };
  for (const record of records) {
    const text = cell(record, 'shippingMethod');
    const carrier = cell(record, 'carrier');
    const method = cell(record, 'method');
    let choice: ShippingChoice | null = null;
    let field: BatchField = 'shippingMethod';
    if (text) {
      choice = parseShippingChoice(text);
      if (!choice) fail(record.row, 'shippingMethod', `"${text}" is not a shipping method: give its id, carrier and method, "cheapest" or "fastest"`);
    } else if (carrier || method) {
      field = carrier ? 'method' : 'carrier';
      if (!carrier || !method) fail(record.row, field, 'Give both the carrier code and the delivery method code');
      else choice = { kind: 'code', carrier, method };
    }
    if (!choice) continue;
    if (!shipping) {
      shipping = choice;
      shippingAt = { row: record.row, column: columnOf(field) };
    } else if (describeChoice(choice).toLowerCase() !== describeChoice(shipping).toLowerCase()) {
      fail(record.row, field, `Differs from the shipping of row ${shippingAt.row} of the same order (${describeChoice(shipping)})`);
    }
  }
  return { shipping, shippingAt };
}
