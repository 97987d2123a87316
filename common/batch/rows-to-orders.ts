// CSV records → orders. Rows sharing an orderReference form one order with several models (rows
// without one have one made from their content: see references.ts). Every problem names its row,
// column and cause, and the recipient is checked with the order form's own rules.
import { restoreCell } from '../csv-text.ts';
import { validateModelLines, validateRecipient, type Recipient } from '../orders/validation.ts';
import type { BatchField, ColumnMapping } from './mapping.ts';
import { parseShippingChoice, describeChoice, type ShippingChoice } from './shipping-rule.ts';
import { countryCodeOf, idList, modelLine, quantityOf, recipientValue, type ModelLookup } from './row-values.ts';
import type { CsvRecord } from './parse-csv.ts';
import type { ReferencedRecord } from './references.ts';

export type { ModelLookup };

export interface BatchError {
  /** 1-based, as a spreadsheet shows it (the header is row 1) */
  row: number;
  /** the header name of the column, or null when the problem is not in one cell */
  column: string | null;
  field: BatchField | null;
  message: string;
}

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
  errors: BatchError[];
}

export interface RowsInput {
  header: readonly string[];
  records: readonly ReferencedRecord[];
  mapping: ColumnMapping;
  /** the project's models by lower-case name; without it model names cannot be resolved */
  models?: ModelLookup;
}

export const MAX_MODELS_PER_ORDER = 100;
const MAX_REFERENCE = 100;
const RECIPIENT_FIELDS = ['firstName', 'lastName', 'streetAddress', 'postal', 'city', 'country', 'countryState', 'phoneNumber', 'email'] as const;

export function rowsToOrders(input: RowsInput): { orders: BatchOrder[]; errors: BatchError[] } {
  const groups = new Map<string, CsvRecord[]>();
  for (const record of input.records) {
    const group = groups.get(record.reference);
    if (group) group.push(record);
    else groups.set(record.reference, [record]);
  }
  const orders = [...groups].map(([reference, records]) => toOrder(input, reference, records));
  return { orders, errors: orders.flatMap((order) => order.errors) };
}

/** What the readers of one order share: its rows, how to read a cell, and where problems go. */
interface Context {
  input: RowsInput;
  records: CsvRecord[];
  cell: (record: CsvRecord, field: BatchField) => string;
  columnOf: (field: BatchField) => string | null;
  fail: Fail;
}

function toOrder(input: RowsInput, reference: string, records: CsvRecord[]): BatchOrder {
  const { header, mapping } = input;
  const errors: BatchError[] = [];
  const columnOf = (field: BatchField) => (mapping[field] === undefined ? null : (header[mapping[field] as number] ?? null));
  const cell = (record: CsvRecord, field: BatchField) => (mapping[field] === undefined ? '' : restoreCell((record.cells[mapping[field] as number] ?? '').trim()));
  const fail: Fail = (row, field, message, column = field && columnOf(field)) => void errors.push({ row, column, field, message });
  const ctx: Context = { input, records, cell, columnOf, fail };

  for (const record of records) {
    record.cells.forEach((value, index) => {
      if (index >= header.length && value.trim()) fail(record.row, null, 'This cell has no column name in the header row: add a name or remove the value', `Column ${index + 1}`);
    });
  }
  if (reference.length > MAX_REFERENCE) fail(records[0].row, 'orderReference', `An order reference has at most ${MAX_REFERENCE} characters`);
  const recipient = recipientOf(ctx);
  const models = modelsOf(ctx);
  const orderContent = {
    ConfigIds: union(records.map((r) => idList(cell(r, 'configIds')))),
    ExternalConfigIds: union(records.map((r) => idList(cell(r, 'externalConfigIds')))),
    StockIds: union(records.map((r) => idList(cell(r, 'stockIds')))),
  };
  const { shipping, shippingAt } = shippingOf(ctx);
  // Row by row, and left to right within a row, as the user reads the sheet.
  const position = (e: BatchError) => (e.column === null ? -1 : header.indexOf(e.column));
  errors.sort((a, b) => a.row - b.row || position(a) - position(b));
  return { reference, rows: records.map((r) => r.row), recipient, models, orderContent, shipping, shippingAt, errors };
}

/** The first row that gives a recipient field decides it; a later row may leave it blank but not contradict it. */
function recipientOf({ records, cell, columnOf, fail }: Context): Recipient {
  const recipient = {} as Recipient;
  const source = {} as Record<keyof Recipient, number>;
  const unreadable = new Set<string>();
  for (const field of RECIPIENT_FIELDS) {
    recipient[field] = '';
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
  recipient.country = countryCodeOf(recipient.country);
  for (const [field, message] of Object.entries(validateRecipient(recipient)) as [keyof Recipient, string][]) {
    if (unreadable.has(field)) continue;
    const column = columnOf(field);
    fail(source[field], field, column ? message : `${message} (the file has no column for it)`, column);
  }
  return recipient;
}

/** One model line per row, by id or by name, checked as the form checks them. */
function modelsOf({ input, records, cell, fail }: Context): BatchModelLine[] {
  const { mapping } = input;
  const models: BatchModelLine[] = [];
  const lineRows: number[] = [];
  const modelField = (record: CsvRecord): BatchField => (mapping.modelId !== undefined && (cell(record, 'modelId') || mapping.modelName === undefined) ? 'modelId' : 'modelName');
  for (const record of records) {
    const line = modelLine(cell(record, 'modelId'), cell(record, 'modelName'), input.models);
    const quantity = mapping.quantity === undefined ? { ok: true as const, value: 1 } : quantityOf(cell(record, 'quantity'));
    if (!line.ok) fail(record.row, modelField(record), line.message);
    if (!quantity.ok) fail(record.row, 'quantity', quantity.message);
    if (line.ok && quantity.ok) {
      models.push({ modelId: line.modelId, quantity: quantity.value, ...(line.name ? { name: line.name } : {}) });
      lineRows.push(record.row);
    }
  }
  if (records.length > MAX_MODELS_PER_ORDER) fail(records[MAX_MODELS_PER_ORDER].row, null, `An order holds at most ${MAX_MODELS_PER_ORDER} models; this order has ${records.length} rows`);
  for (const [key, message] of Object.entries(validateModelLines(models))) {
    const [, index, part] = key.split('.');
    if (index === undefined) continue; // "no models": each row without one already has its own error
    const record = records.find((r) => r.row === lineRows[Number(index)]) as CsvRecord;
    fail(record.row, part === 'quantity' ? 'quantity' : modelField(record), message);
  }
  return models;
}

type Fail = (row: number, field: BatchField | null, message: string, column?: string | null) => void;

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
