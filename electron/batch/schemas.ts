// Shapes of batches as they cross the contract: the lead's contract.ts can use these as the
// output schemas of the batch:* channels, and the view's types come from them.
import { z } from 'zod';
import { BATCH_FIELDS } from '../../common/batch/mapping.ts';
import { OUTCOMES } from '../../common/batch/report.ts';

export const BatchField = z.enum(BATCH_FIELDS);
export const ColumnMapping = z.partialRecord(BatchField, z.number().int().min(0).max(10_000));
export type ColumnMapping = z.infer<typeof ColumnMapping>;

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
  row: z.number(),
  column: z.string().nullable(),
  field: BatchField.nullable(),
  message: z.string(),
});
export type BatchError = z.infer<typeof BatchError>;

export const BatchSummary = z.object({
  id: z.string(),
  projectId: z.string(),
  fileName: z.string(),
  fileHash: z.string(),
  header: z.array(z.string()),
  mapping: ColumnMapping,
  layoutKey: z.string(),
  shipping: ShippingChoice,
  state: BatchState,
  rows: z.number(),
  orders: z.number(),
  /** rows with at least one problem */
  rowsWithErrors: z.number(),
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
});
export type BatchSummary = z.infer<typeof BatchSummary>;

export const BatchRow = z.object({
  row: z.number(),
  reference: z.string(),
  cells: z.array(z.string()),
  errors: z.array(BatchError),
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
});
export type BatchProgress = z.infer<typeof BatchProgress>;

export const BatchReportRow = z.object({
  row: z.number(),
  reference: z.string(),
  outcome: z.enum(OUTCOMES),
  orderId: z.string().nullable(),
  message: z.string().nullable(),
  cells: z.array(z.string()),
});
export type BatchReportRow = z.infer<typeof BatchReportRow>;

/** Inputs of the batch:* channels. `bytes` crosses IPC as a Uint8Array (structured clone). */
export const ImportInput = z.object({
  bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'Expected the file as bytes'),
  fileName: z.string().max(500),
  projectId: z.string(),
  mapping: ColumnMapping.optional(),
  shipping: ShippingChoice.optional(),
});
export type ImportInput = z.infer<typeof ImportInput>;
