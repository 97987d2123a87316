// Shapes of quotes, drafts and orders as they cross the contract.
import { z } from 'zod';
import { MAX_MODEL_LINES } from '../../../common/orders/limits.ts';
import { ShippingChoice } from '../../services/batch/schemas.ts';

export const Guid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Not a GUID');

export const ModelLine = z.object({
  modelId: z.string().max(64),
  quantity: z.number().int().min(1).max(100_000),
  /** the model's name when it was added, for display only */
  name: z.string().max(300).optional(),
});
export type ModelLine = z.infer<typeof ModelLine>;

export const PackageSpec = z.object({
  weight: z.number().nullable(),
  length: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
});
export type PackageSpec = z.infer<typeof PackageSpec>;

export const QuoteRequest = z.object({
  country: z.string().max(60),
  models: z.array(ModelLine).max(MAX_MODEL_LINES).optional(),
  package: PackageSpec.optional(),
});
export type QuoteRequest = z.infer<typeof QuoteRequest>;

export const ShippingMethod = z.object({
  shippingMethodId: z.number(),
  carrier: z.string(),
  method: z.string(),
  servicePoint: z.boolean(),
  price: z.number(),
  minDeliveryTime: z.string().nullable(),
  maxDeliveryTime: z.string().nullable(),
  estimatedDeliveryTime: z.string().nullable(),
  /** when the service quoted this price (set by PrintDesk; absent in drafts written before it kept it) */
  quotedAt: z.string().nullable().optional(),
});
export type ShippingMethod = z.infer<typeof ShippingMethod>;

export const Quote = z.object({
  country: z.string(),
  methods: z.array(ShippingMethod),
  currency: z.string(),
  quotedAt: z.string(),
  /** the service could not be reached: this is the last quote seen for the same request, as of quotedAt */
  offline: z.boolean().optional(),
});
export type Quote = z.infer<typeof Quote>;

/** A quote kept from an earlier answer: what it was for (models or a parcel) and when. */
export const SeenQuote = Quote.extend({
  request: QuoteRequest,
});
export type SeenQuote = z.infer<typeof SeenQuote>;

const text = (max: number) => z.string().max(max);
export const Recipient = z.object({
  firstName: text(100),
  lastName: text(100),
  streetAddress: text(200),
  postal: text(20),
  city: text(100),
  country: text(3),
  countryState: text(100),
  phoneNumber: text(30),
  email: text(254),
});
export type Recipient = z.infer<typeof Recipient>;

const Ids = z.array(z.string().max(200)).max(1000);
export const OrderContent = z.object({ ConfigIds: Ids, ExternalConfigIds: Ids, StockIds: Ids });
export type OrderContent = z.infer<typeof OrderContent>;

/**
 * Shipping chosen by a rule rather than a method (as offline, when no method can be quoted): resolved
 * against the service's quote when the outbox sends the order, and placed only at or below the ceiling.
 */
export const ShippingRule = z.object({
  choice: ShippingChoice,
  /** the most the user agreed to pay, in cents; null: the price quoted at send time asks for consent first */
  ceiling: z.number().int().min(0).max(1_000_000_000).nullable(),
  /** when the ceiling's price was quoted (a kept quote); null for a ceiling the user typed or none */
  seenAt: z.string().nullable(),
});
export type ShippingRule = z.infer<typeof ShippingRule>;

/** What the user edits. The reference and state are the host's, never the form's. */
export const DraftFields = z.object({
  recipient: Recipient,
  models: z.array(ModelLine).max(MAX_MODEL_LINES),
  shippingMethod: ShippingMethod.nullable(),
  /** instead of a method: a rule the outbox resolves when it sends (absent in drafts written before rules) */
  shippingRule: ShippingRule.nullable().optional(),
  orderContent: OrderContent,
});
export type DraftFields = z.infer<typeof DraftFields>;

export const DRAFT_STATES = ['draft', 'queued', 'sending', 'placed', 'rejected', 'needs-attention'] as const;
export const DraftState = z.enum(DRAFT_STATES);
export type DraftState = z.infer<typeof DraftState>;

export const Problem = z.object({
  kind: z.enum(['rejected', 'method-gone', 'price-changed', 'no-access', 'session-expired', 'invalid']),
  message: z.string(),
  /** for a changed quote: what the draft had and what the service offers now */
  before: ShippingMethod.nullable().optional(),
  after: ShippingMethod.nullable().optional(),
});
export type Problem = z.infer<typeof Problem>;

export const PlacedOrder = z.object({
  orderId: z.string(),
  status: z.string(),
  createdAt: z.string().nullable(),
  shippingPrice: z.number().nullable(),
  currency: z.string().nullable(),
});
export type PlacedOrder = z.infer<typeof PlacedOrder>;

/** The batch file and rows an order came from (a single order has none). */
export const BatchOrigin = z.object({
  batchId: z.string(),
  fileName: z.string(),
  importedAt: z.string(),
  /** the file's rows (as a spreadsheet numbers them) that made this order: several rows may share a reference */
  rows: z.array(z.number()),
});
export type BatchOrigin = z.infer<typeof BatchOrigin>;

export const Draft = DraftFields.extend({
  id: z.string(),
  orderReference: z.string(),
  projectId: z.string(),
  state: DraftState,
  problem: Problem.nullable(),
  order: PlacedOrder.nullable(),
  attempts: z.number(),
  /** an attempt reached out and its answer was lost: the service may have placed it (asked before the next) */
  unanswered: z.boolean(),
  /** when a queued order is tried again after an attempt failed (the service out of reach, a 5xx); null when due */
  nextAttemptAt: z.string().nullable(),
  /** a queued order the user holds: it stays in the outbox, unsent, until released */
  held: z.boolean(),
  batch: BatchOrigin.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** counted up by every change: a save from a form opened on an older one is refused (EDIT_CONFLICT) */
  version: z.number().int().optional(),
});
export type Draft = z.infer<typeof Draft>;

export const ATTEMPT_OUTCOMES = ['placed', 'rejected', 'needs-attention', 'retry', 'interrupted'] as const;
export const ORDER_EVENT_KINDS = ['drafted', 'edited', 'queued', 'held', 'released', 'unqueued', 'attempt', 'placed', 'status', 'moved'] as const;

/** One step of an order's history, as its page's timeline shows it. */
export const OrderEvent = z.object({
  at: z.string(),
  kind: z.enum(ORDER_EVENT_KINDS),
  /** the send attempt's number (attempt, placed) */
  attempt: z.number().optional(),
  outcome: z.enum(ATTEMPT_OUTCOMES).optional(),
  /** why: the service's refusal, the reason to wait, a price accepted */
  message: z.string().optional(),
  orderId: z.string().optional(),
  /** the service's status (status), and the one before it */
  status: z.string().optional(),
  previous: z.string().optional(),
  /** when a failed attempt is tried again */
  nextAttemptAt: z.string().optional(),
  /** who did it and on which workstation, where known (a team's store records it) */
  actor: z.string().optional(),
});
export type OrderEvent = z.infer<typeof OrderEvent>;

/** What an action on many orders did: the orders as they are now, and each one it could not act on, with why. */
export const BulkResult = z.object({
  done: z.array(Draft),
  failed: z.array(z.object({ id: z.string(), reference: z.string(), message: z.string() })),
});
export type BulkResult = z.infer<typeof BulkResult>;
