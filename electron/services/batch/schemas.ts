// Shapes of batches as they cross the contract: the lead's contract.ts can use these as the
// output schemas of the batch:* channels, and the view's types come from them.
import { z } from 'zod';
import { BATCH_FIELDS, CONSTANT_FIELDS } from '../../../common/batch/mapping.ts';
import { LAYOUT_NAMES, NOT_OPEN, PLATFORM_IDS } from '../../../common/batch/platforms/types.ts';
import { PROBLEM_KINDS } from '../../../common/batch/problems.ts';
import { OUTCOMES } from '../../../common/batch/report.ts';

export const BatchField = z.enum(BATCH_FIELDS);
/** field → 0-based column of the header */
export const ColumnMapping = z.partialRecord(BatchField, z.number().int().min(0).max(10_000));
export type ColumnMapping = z.infer<typeof ColumnMapping>;

/** One value for every row that has none, per field (the shop's contact where a platform gives none). */
export const FieldConstants = z.partialRecord(z.enum(CONSTANT_FIELDS), z.string().trim().max(254));
export type FieldConstants = z.infer<typeof FieldConstants>;

export const NotOpen = z.enum(NOT_OPEN);
export const SkipReason = z.enum([...NOT_OPEN, 'no-prints']);
export type SkipReason = z.infer<typeof SkipReason>;
export const LayoutName = z.enum(LAYOUT_NAMES);

export const ShippingChoice = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('id'), id: z.number().int() }),
  z.object({ kind: z.literal('code'), carrier: z.string().max(100), method: z.string().max(100) }),
  z.object({ kind: z.literal('rule'), rule: z.enum(['cheapest', 'fastest']) }),
]);
export type ShippingChoice = z.infer<typeof ShippingChoice>;

export const BATCH_STATES = ['draft', 'sending', 'paused', 'done', 'cancelled'] as const;
export const BatchState = z.enum(BATCH_STATES);
export type BatchState = z.infer<typeof BatchState>;

export const BatchError = z.object({
  /** 1-based, as a spreadsheet shows it (the header is row 1) */
  row: z.number(),
  /** the header name of the column, or null when the problem is not in one cell */
  column: z.string().nullable(),
  field: BatchField.nullable(),
  message: z.string(),
  /** error holds the order back; warning and note are said; skip: the order is not taken */
  kind: z.enum(PROBLEM_KINDS).default('error'),
  /** a skip's cause, for the review's counts and the choice to include such orders */
  reason: SkipReason.optional(),
});
export type BatchError = z.infer<typeof BatchError>;

/** What a batch has placed, has left to fix and had rejected: its header once part of it is sent. */
export const BatchWorkspace = z.object({
  placed: z.number(),
  /** the shipping the service charged for the orders placed, in cents */
  placedCost: z.number(),
  currency: z.string(),
  /** orders with a problem in one of their rows: fixed in place, they are sent from the batch */
  leftToFix: z.number(),
  rejected: z.number(),
  needsAttention: z.number(),
});
export type BatchWorkspace = z.infer<typeof BatchWorkspace>;

/** A method as a check quoted it, for a row of the review and the report. */
export const QuotedShipping = z.object({
  carrier: z.string(),
  method: z.string(),
  /** cents */
  price: z.number(),
  currency: z.string(),
  minDeliveryTime: z.string().nullable(),
  maxDeliveryTime: z.string().nullable(),
});
export type QuotedShipping = z.infer<typeof QuotedShipping>;

const CostLine = z.object({
  /** "DHL PARCEL" (carrier and method code) or a country's alpha-2 code */
  key: z.string(),
  carrier: z.string().optional(),
  method: z.string().optional(),
  orders: z.number(),
  /** cents */
  total: z.number(),
});
export type CostLine = z.infer<typeof CostLine>;
/** What sending the batch now would cost (common/batch/costs.ts). */
export const BatchCosts = z.object({
  orders: z.number(),
  currency: z.string(),
  /** cents */
  total: z.number(),
  byMethod: z.array(CostLine),
  byCountry: z.array(CostLine),
  /** the earliest day any order may arrive, and the latest */
  earliest: z.string().nullable(),
  latest: z.string().nullable(),
});
export type BatchCosts = z.infer<typeof BatchCosts>;

/** How far checking a batch's shipping is: one quote per destination and parcel, at the service's pace. */
export const BatchChecking = z.object({
  batchId: z.string(),
  done: z.number(),
  total: z.number(),
  etaSeconds: z.number().nullable(),
  /** the service asked to wait (a rate limit) until then */
  waitingUntil: z.string().nullable(),
});
export type BatchChecking = z.infer<typeof BatchChecking>;

export const BatchSummary = z.object({
  id: z.string(),
  projectId: z.string(),
  fileName: z.string(),
  fileHash: z.string(),
  header: z.array(z.string()),
  mapping: ColumnMapping,
  layoutKey: z.string(),
  /** the platform whose export this is, as the review names it, or null for a file matched by column names */
  layout: z.object({ id: z.enum(PLATFORM_IDS), name: z.string(), label: z.string(), rowNoun: z.enum(['line item', 'order']), missing: z.array(BatchField) }).nullable(),
  constants: FieldConstants,
  /** orders not open on their platform that are taken all the same, by why */
  include: z.array(NotOpen),
  shipping: ShippingChoice,
  state: BatchState,
  rows: z.number(),
  orders: z.number(),
  /** rows with at least one problem that holds their order back */
  rowsWithErrors: z.number(),
  /** rows with a warning: said, and sent as written */
  rowsWithWarnings: z.number(),
  /** orders not taken, by why (not open on the platform, or nothing to print) */
  notTaken: z.array(z.object({ reason: SkipReason, orders: z.number() })),
  /** what PrintDesk read for the user ("Germany" read as DE), each once, with how many rows */
  notes: z.array(z.object({ message: z.string(), rows: z.number() })),
  /** orders a send would place now: none of their rows (nor the header) with a problem, not sent before, not queued */
  sendable: z.number(),
  errors: z.number(),
  /** orders whose reference was used before, by a single order or another batch: skipped when sent */
  usedElsewhere: z.number(),
  /**
   * orders this batch has handed to the outbox. A batch still in draft with some (and `sentAt` set) was
   * stopped while they were being queued: those are on their way, and sending queues the rest.
   */
  queued: z.number(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** what the batch placed, has left and had rejected (all 0 before a send) */
  workspace: BatchWorkspace,
  /** why shipping could not be checked (the service cannot be reached), or null: no row is flagged for it */
  shippingUnchecked: z.string().nullable(),
  /** who sent it last: "ada@shop.example on bench-2" (team mode names the workstation), or null */
  sentBy: z.string().nullable(),
  /** its send is being checked and queued now (by `sentBy`, maybe on another workstation): it cannot change meanwhile */
  preparing: z.boolean(),
});
export type BatchSummary = z.infer<typeof BatchSummary>;

/** The order a row became, once its batch handed it over. */
export const BatchRowOrder = z.object({
  state: z.string(),
  orderId: z.string().nullable(),
  message: z.string().nullable(),
  /** made earlier, by another batch or on its own (this row is skipped when sent: "Placed as …") */
  earlier: z.boolean(),
});
export type BatchRowOrder = z.infer<typeof BatchRowOrder>;

export const BatchRow = z.object({
  row: z.number(),
  reference: z.string(),
  cells: z.array(z.string()),
  errors: z.array(BatchError),
  /** its order's shipping as last quoted (on the order's first row), or null */
  shipping: QuotedShipping.nullable().optional(),
  order: BatchRowOrder.nullable().optional(),
});
export type BatchRow = z.infer<typeof BatchRow>;

export const BatchRowsPage = z.object({ total: z.number(), rows: z.array(BatchRow) });
export type BatchRowsPage = z.infer<typeof BatchRowsPage>;

export const BatchProgress = z.object({
  batchId: z.string(),
  state: BatchState,
  /** orders this batch sends (invalid and skipped ones excluded) */
  total: z.number(),
  done: z.number(),
  /** rejected, or held for the user (price changed, session expired…) */
  failed: z.number(),
  /** queued or being sent */
  left: z.number(),
  cancelled: z.number(),
  skipped: z.number(),
  /** orders placed or failed per second, over the last few seconds */
  ratePerSecond: z.number(),
  etaSeconds: z.number().nullable(),
  concurrency: z.number(),
  /**
   * Nothing on its way and every queued order waiting for its next try: until when, and whether for the
   * service to be reachable (else it asked to slow down, or failed, and is given time). Null otherwise.
   */
  waiting: z.object({ until: z.string(), forService: z.boolean() }).nullable().default(null),
  /** who sent it: "ada@shop.example on bench-2", or null */
  sentBy: z.string().nullable().default(null),
  /** its send is being checked and queued (by `sentBy`): its orders are not all queued yet */
  preparing: z.boolean().default(false),
  /** in a send's answer: the batch was already being sent (by `sentBy`), and this workstation joined in */
  joined: z.boolean().default(false),
});
export type BatchProgress = z.infer<typeof BatchProgress>;

export const BatchReportRow = z.object({
  row: z.number(),
  reference: z.string(),
  outcome: z.enum(OUTCOMES),
  orderId: z.string().nullable(),
  message: z.string().nullable(),
  cells: z.array(z.string()),
  /** the shipping charged (placed) or last quoted, on the order's first row */
  shipping: QuotedShipping.nullable().optional(),
});
export type BatchReportRow = z.infer<typeof BatchReportRow>;

/** A SKU of a batch, with what the project's SKU table (or a model's file name) makes of it. */
export const BatchSku = z.object({
  sku: z.string(),
  /** the product's name in the file, to tell SKUs apart */
  productName: z.string(),
  /** rows of the batch naming it */
  rows: z.number(),
  match: z.object({ modelId: z.string(), name: z.string(), how: z.enum(['table', 'file-name']) }).nullable(),
  skip: z.boolean(),
  /** models whose file is named so: two or more, and which one is the user's to pick */
  sameName: z.number(),
});
export type BatchSku = z.infer<typeof BatchSku>;

/** Inputs of the batch:* channels. `bytes` crosses IPC as a Uint8Array (structured clone). */
export const ImportInput = z.object({
  bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'Expected the file as bytes'),
  fileName: z.string().max(500),
  projectId: z.string(),
  mapping: ColumnMapping.optional(),
  shipping: ShippingChoice.optional(),
  /** the platform named by the user (the CLI's --layout), rather than recognised by the header */
  layout: LayoutName.optional(),
  constants: FieldConstants.optional(),
  include: z.array(NotOpen).optional(),
});
export type ImportInput = z.infer<typeof ImportInput>;
