// A batch's rows checked as the order form checks one order, then each order's shipping picked
// from a quote for its destination and models. Quotes are asked once per distinct
// (country, models), at the pace the service's rate limit allows (quote-pacer.ts), and kept for ten
// minutes; the outbox's own quote cache is filled on the way, so the staleness check it makes before
// each send costs no request.
import { checkMapping, FIELD_LABELS } from '../../../common/batch/mapping.ts';
import { platformById } from '../../../common/batch/platforms/index.ts';
import { isSendable, rowsToOrders, type BatchOrder } from '../../../common/batch/rows-to-orders.ts';
import { resolveShipping } from '../../../common/batch/shipping-rule.ts';
import { createSkuLookup, type ProjectModels } from '../../../common/batch/sku-match.ts';
import { countryInSentence, toAlpha2 } from '../../../common/orders/countries.ts';
import type { RateLimitInfo } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import type { Orders } from '../orders/index.ts';
import type { Quote, QuoteRequest, ShippingMethod } from '../../contract/schemas/orders.ts';
import { fetchPaced, type QuoteOutcome, type QuoteProgress } from './quote-pacer.ts';
import { changedOrderMessage, differencesFrom, sameAsImported, valuesOf, type EarlierOrders } from './earlier-order.ts';
import type { BatchError } from './schemas.ts';
import type { SkuTable } from './sku-table.ts';
import type { BatchRecord, StoredRecord } from './tables.ts';

/** The project's models by name, file name and file name without extension (model-names.ts). */
export type ResolveModelName = (projectId: string) => Promise<ProjectModels>;

export interface ValidatedOrder extends BatchOrder {
  method: ShippingMethod | null;
  /** the currency of the quote the method came from */
  currency?: string;
}

export interface Validation {
  orders: ValidatedOrder[];
  errors: BatchError[];
  /**
   * Why shipping could not be checked (the service cannot be reached, or keeps failing): no row is flagged
   * for it, and nothing can be sent until a check gets through. Null when every quote was answered.
   */
  unchecked: HostError | null;
}

/** Failures of the service as a whole, not of a row: the check stops and says so. */
const SERVICE_DOWN = new Set(['OFFLINE', 'TIMEOUT', 'INTERNAL_ERROR', 'INVALID_RESPONSE']);

const QUOTE_TTL_MS = 10 * 60_000;
const MODELS_TTL_MS = 60_000;

export type Validator = ReturnType<typeof createValidator>;

export interface ValidatorDeps {
  orders: Orders;
  resolveModelName: ResolveModelName;
  skus: SkuTable;
  earlierOrders: EarlierOrders;
  /** what the service last said of its limit for quotes */
  rateLimit?: () => RateLimitInfo | undefined;
  /** aborted when the program stops (the CLI's Ctrl+C): a check waiting on the rate limit ends with it */
  signal?: () => AbortSignal | undefined;
  /** how far the quotes of a batch's check are */
  onChecking?: (batchId: string, progress: QuoteProgress) => void;
  now?: () => number;
}

export function createValidator(deps: ValidatorDeps) {
  const now = deps.now ?? Date.now;
  const lookups = new Map<string, { at: number; lookup: Promise<ProjectModels | null> }>();
  const quotes = new Map<string, { at: number; quote: Quote }>();

  /** The project's models by name, or null when they cannot be listed (names then cannot be resolved). */
  function modelsOf(projectId: string, fresh: boolean): Promise<ProjectModels | null> {
    const hit = lookups.get(projectId);
    if (!fresh && hit && now() - hit.at < MODELS_TTL_MS) return hit.lookup;
    const lookup = deps.resolveModelName(projectId).catch(() => {
      // Not kept: the next check asks again rather than failing for a minute.
      lookups.delete(projectId);
      return null;
    });
    lookups.set(projectId, { at: now(), lookup });
    return lookup;
  }
  /** Rows → orders with their own problems only: no requests. */
  async function local(batch: BatchRecord, records: readonly StoredRecord[], models: ProjectModels | null): Promise<Validation> {
    const problems = checkMapping(batch.header, batch.mapping, batch.constants);
    if (problems.length) {
      const errors = problems.map((p) => ({ row: 1, column: null, field: p.field, message: p.message, kind: 'error' as const }));
      return { orders: [], errors, unchecked: null };
    }
    const { orders, errors } = rowsToOrders({
      header: batch.header,
      records,
      mapping: batch.mapping,
      models: models?.byName,
      skus: models ? createSkuLookup(await deps.skus.entries(batch.projectId), models) : undefined,
      constants: batch.constants,
      platform: platformById(batch.layout),
      include: batch.include,
    });
    const earlier = await againstEarlierOrders(batch, orders, records);
    const kept = errors.filter((e) => !(e.kind === 'error' && earlier.placedRows.has(e.row)));
    return { orders: orders.map((o) => ({ ...o, method: null })), errors: [...kept, ...earlier.added], unchecked: null };
  }

  /**
   * Rows whose reference an earlier order holds (another batch's, or one placed on its own). The same order
   * (the rows as that batch imported them, or saying what the order says) is that order, placed or on its
   * way: problems its rows had were fixed in PrintDesk before it was sent, and are not this file's. A row
   * that says something else is its problem, naming what differs (see earlier-order.ts).
   */
  async function againstEarlierOrders(batch: BatchRecord, orders: BatchOrder[], records: readonly StoredRecord[]) {
    const column = batch.mapping.orderReference === undefined ? null : (batch.header[batch.mapping.orderReference] ?? null);
    const cellsOf = new Map(records.map((r) => [r.row, r.cells]));
    const placedRows = new Set<number>();
    const added: BatchError[] = [];
    const held = await deps.earlierOrders(batch.id, orders.filter((order) => !order.skipped).map((order) => order.reference));
    for (const order of orders) {
      const earlier = order.skipped ? null : held.get(order.reference);
      if (!earlier) continue;
      const differences = differencesFrom(earlier.fields, order);
      if (sameAsImported(earlier, order.rows.map((row) => valuesOf(batch.mapping, cellsOf.get(row) ?? []))) || differences.length === 0) {
        order.rows.forEach((row) => placedRows.add(row));
        order.errors = order.errors.filter((e) => e.kind !== 'error');
        continue;
      }
      if (!isSendable(order)) continue;
      const error = { row: order.rows[0], column, field: 'orderReference' as const, message: changedOrderMessage(order.reference, earlier, differences), kind: 'error' as const };
      order.errors.push(error);
      added.push(error);
    }
    return { placedRows, added };
  }

  /**
   * Picks each valid order's method. A quote the service refuses, or one that offers nothing fitting, is the
   * problem of the orders needing it; waiting for the service is nobody's (see quote-pacer.ts). `fresh`: ask
   * again what was asked before this check, each distinct quote once.
   */
  async function ship(batch: BatchRecord, orders: ValidatedOrder[], fresh: boolean): Promise<BatchError[]> {
    const since = now();
    const wanted = orders.filter(isSendable).map((order) => ({ order, ...quoteKey(order) }));
    const requests = new Map(wanted.map((w) => [w.key, w.request]));
    const outcomes = new Map<string, QuoteOutcome>();
    for (const key of requests.keys()) {
      const hit = quotes.get(key);
      if (hit && (fresh ? hit.at >= since : now() - hit.at < QUOTE_TTL_MS)) outcomes.set(key, { ok: true, quote: hit.quote });
    }
    const missing = [...requests.keys()].filter((key) => !outcomes.has(key));
    const fetched = await fetchPaced(missing, {
      fetch: (key) => deps.orders.quote(requests.get(key) as QuoteRequest),
      rateLimit: () => deps.rateLimit?.(),
      signal: deps.signal?.(),
      onProgress: (progress) => deps.onChecking?.(batch.id, progress),
      now,
    });
    for (const [key, outcome] of fetched) {
      if (outcome.ok) quotes.set(key, { at: now(), quote: outcome.quote });
      outcomes.set(key, outcome);
    }
    const added: BatchError[] = [];
    for (const { order, key } of wanted) {
      const outcome = outcomes.get(key) as QuoteOutcome;
      const resolved = outcome.ok ? resolveShipping(outcome.quote.methods, order.shipping ?? batch.shipping, countryInSentence(outcome.quote.country)) : null;
      if (resolved?.ok) {
        order.method = resolved.method;
        order.currency = outcome.ok ? outcome.quote.currency : undefined;
        continue;
      }
      const message = resolved ? resolved.message : `The service would not quote shipping for this order: ${(outcome as { message: string }).message}`;
      const error = { row: order.shippingAt.row, column: order.shippingAt.column, field: 'shippingMethod' as const, kind: 'error' as const, message };
      order.errors.push(error);
      added.push(error);
    }
    return added;
  }

  async function validate(batch: BatchRecord, records: readonly StoredRecord[], options: { fresh?: boolean } = {}): Promise<Validation> {
    const fresh = options.fresh ?? false;
    const { mapping } = batch;
    const needed = mapping.modelName !== undefined || mapping.modelId !== undefined || mapping.sku !== undefined;
    const models = needed ? await modelsOf(batch.projectId, fresh) : null;
    const result = await local(batch, records, models);
    let shippingErrors: BatchError[] = [];
    let unchecked: HostError | null = null;
    try {
      shippingErrors = await ship(batch, result.orders, fresh);
    } catch (error) {
      if (!(error instanceof HostError && SERVICE_DOWN.has(error.code))) throw error;
      unchecked = error;
      // Quotes from before the service failed are not what it says now: nothing is sent on them until a check gets through.
      quotes.clear();
      for (const order of result.orders) order.method = null;
    }
    const errors = [...result.errors, ...shippingErrors].sort((a, b) => a.row - b.row);
    return { orders: result.orders, errors, unchecked };
  }

  return { validate, models: (projectId: string) => modelsOf(projectId, false), forget: () => (lookups.clear(), quotes.clear()) };
}

/** One quote per destination and parcel: the rows that share them share it. */
function quoteKey(order: BatchOrder): { key: string; request: QuoteRequest } {
  const country = toAlpha2(order.recipient.country) ?? order.recipient.country;
  const models = order.models.map(({ modelId, quantity }) => ({ modelId, quantity }));
  return { key: JSON.stringify([country, models]), request: { country, models } };
}

/** "Email: Not an email address; Quantity: At least 1" for a report cell. */
export function describeErrors(errors: readonly BatchError[]): string {
  return errors.map((e) => `${e.column ?? (e.field ? FIELD_LABELS[e.field] : 'Row')}: ${e.message}`).join('; ');
}
