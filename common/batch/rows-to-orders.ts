// CSV records → orders. Rows sharing an orderReference form one order with several models (rows
// without one have one made from their content: see references.ts). Every problem names its row,
// column and cause. What the service would refuse is an error and holds the order back; what only
// looks wrong to us (a postal code's shape, a state) is a warning, and the order goes as written.
import { restoreCell } from '../csv-text.ts';
import { recipientWarnings, validateRecipient, type Recipient } from '../orders/validation.ts';
import { readCountry } from './country-names.ts';
import { CONSTANT_FIELDS, normalizeHeader, type BatchField, type ColumnMapping, type ConstantField, type FieldConstants } from './mapping.ts';
import { linesOf } from './order-lines.ts';
import type { CsvRecord } from './parse-csv.ts';
import { columnIndex } from './platforms/index.ts';
import { NOT_OPEN_LABELS, type NotOpen, type OrderCells, type Platform } from './platforms/types.ts';
import type { BatchError, ProblemKind, SkipReason } from './problems.ts';
import type { ReferencedRecord } from './references.ts';
import { idList, recipientValue, type ModelLookup } from './row-values.ts';
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
  const byName = columnIndex(input.header);
  const known = new Map<string, number | undefined>();
  const indexOf = (column: string) => {
    if (!known.has(column)) known.set(column, byName.get(normalizeHeader(column)));
    return known.get(column);
  };
  const orders = [...groups].map(([reference, records]) => toOrder(input, indexOf, reference, records));
  return { orders, errors: orders.flatMap((order) => order.errors) };
}

/** What the readers of one order share: its rows, how to read a cell, and where problems go. */
export interface Context {
  input: RowsInput;
  records: CsvRecord[];
  cell: (record: CsvRecord, field: BatchField) => string;
  /** a cell by the platform's header name */
  named: (record: CsvRecord, column: string) => string;
  columnOf: (field: BatchField) => string | null;
  fail: Fail;
}

export type Fail = (row: number, field: BatchField | null, message: string, kind?: ProblemKind, column?: string | null) => void;

function toOrder(input: RowsInput, indexOf: (column: string) => number | undefined, reference: string, records: CsvRecord[]): BatchOrder {
  const { header, mapping } = input;
  const errors: BatchError[] = [];
  const columnOf = (field: BatchField) => (mapping[field] === undefined ? null : (header[mapping[field] as number] ?? null));
  const cell = (record: CsvRecord, field: BatchField) => (mapping[field] === undefined ? '' : restoreCell((record.cells[mapping[field] as number] ?? '').trim()));
  const named = (record: CsvRecord, column: string) => {
    const at = indexOf(column);
    return at === undefined ? '' : (record.cells[at] ?? '').trim();
  };
  const fail: Fail = (row, field, message, kind = 'error', column = field && columnOf(field)) => void errors.push({ row, column, field, message, kind });
  const ctx: Context = { input, records, cell, named, columnOf, fail };
  const empty = { reference, rows: records.map((r) => r.row), models: [], orderContent: { ConfigIds: [], ExternalConfigIds: [], StockIds: [] }, shipping: null, shippingAt: { row: records[0].row, column: null }, errors };

  const notOpen = input.platform ? input.platform.notOpen(orderCells(ctx)) : null;
  if (notOpen && !input.include?.includes(notOpen)) {
    const message = `Not taken: ${NOT_OPEN_LABELS[notOpen]} on ${input.platform?.name} (include these orders to send them)`;
    const skipped = { reason: notOpen, message };
    skip(errors, records, skipped);
    return { ...empty, recipient: blankRecipient(), skipped };
  }
  for (const record of records) {
    record.cells.forEach((value, index) => {
      if (index >= header.length && value.trim()) fail(record.row, null, 'This cell has no column name in the header row: add a name or remove the value', 'error', `Column ${index + 1}`);
    });
  }
  if (reference.length > MAX_REFERENCE) fail(records[0].row, 'orderReference', `An order reference has at most ${MAX_REFERENCE} characters`);
  const recipient = recipientOf(ctx);
  const { models, skipped } = linesOf(ctx);
  const orderContent = {
    ConfigIds: union(records.map((r) => idList(cell(r, 'configIds')))),
    ExternalConfigIds: union(records.map((r) => idList(cell(r, 'externalConfigIds')))),
    StockIds: union(records.map((r) => idList(cell(r, 'stockIds')))),
  };
  const { shipping, shippingAt } = shippingOf(ctx);
  if (skipped) {
    // Nothing of it is sent: what would hold it back, or only warn, does not matter; what was read does.
    errors.splice(0, errors.length, ...errors.filter((e) => e.kind === 'note'));
    skip(errors, records, skipped);
  }
  // Row by row, and left to right within a row, as the user reads the sheet.
  const position = (e: BatchError) => (e.column === null ? -1 : header.indexOf(e.column));
  errors.sort((a, b) => a.row - b.row || position(a) - position(b));
  return { reference, rows: records.map((r) => r.row), recipient, models, orderContent, shipping, shippingAt, skipped, errors };
}

/** Every row of an order not taken says why. */
function skip(errors: BatchError[], records: readonly CsvRecord[], { reason, message }: { reason: SkipReason; message: string }) {
  for (const record of records) errors.push({ row: record.row, column: null, field: null, message, kind: 'skip', reason });
}

function orderCells({ records, named }: Context): OrderCells {
  return {
    first: (column) => records.map((r) => named(r, column)).find(Boolean) ?? '',
    all: (column) => records.map((r) => named(r, column)),
  };
}

const blankRecipient = (): Recipient => ({ firstName: '', lastName: '', streetAddress: '', postal: '', city: '', country: '', countryState: '', phoneNumber: '', email: '' });

/**
 * The first row that gives a recipient field decides it; a later row may leave it blank (Shopify writes the
 * order's cells on its first line item only) but not contradict it. A field no row gives takes the value
 * given for every row, if there is one.
 */
function recipientOf({ input, records, cell, columnOf, fail }: Context): Recipient {
  const recipient = blankRecipient();
  const source = {} as Record<keyof Recipient, number>;
  const unreadable = new Set<string>();
  for (const field of RECIPIENT_FIELDS) {
    source[field] = records[0].row;
    for (const record of records) {
      const value = recipientValue(field, cell(record, field));
      if (!value.ok) {
        fail(record.row, field, value.message);
        unreadable.add(field);
      } else if (value.text && !recipient[field]) [recipient[field], source[field]] = [value.text, record.row];
      else if (value.text && value.text !== recipient[field]) fail(record.row, field, `Differs from row ${source[field]} of the same order ("${recipient[field]}")`);
    }
  }
  const constant = (field: keyof Recipient) => ((CONSTANT_FIELDS as readonly string[]).includes(field) ? input.constants?.[field as ConstantField]?.trim() : undefined);
  for (const field of RECIPIENT_FIELDS) if (!recipient[field] && !unreadable.has(field)) recipient[field] = constant(field) ?? '';
  const country = readCountry(recipient.country);
  if (!country.ok) {
    fail(source.country, 'country', country.message);
    unreadable.add('country');
  } else {
    if (country.readFrom) fail(source.country, 'country', `"${country.readFrom}" read as ${country.code}`, 'note');
    recipient.country = country.code;
  }
  const where = (field: keyof Recipient, message: string) => {
    if (columnOf(field)) return message;
    return constant(field) ? `${message} (the value given for every row)` : `${message} (the file has no column for it)`;
  };
  for (const [kind, found] of [['error', validateRecipient(recipient)], ['warning', recipientWarnings(recipient)]] as const) {
    for (const [field, message] of Object.entries(found) as [keyof Recipient, string][]) {
      if (!unreadable.has(field)) fail(source[field], field, where(field, message), kind);
    }
  }
  return recipient;
}

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

function union(lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}
