// A batch's rows checked as the order form checks one order, then each order's shipping picked
// from a quote for its destination and models. Quotes are asked once per distinct
// (country, models) and kept for ten minutes; the outbox's own quote cache is filled on the way,
// so the staleness check it makes before each send costs no request.
import PQueue from 'p-queue';
import { checkMapping, FIELD_LABELS } from '../../common/batch/mapping.ts';
import { platformById } from '../../common/batch/platforms/index.ts';
import { isSendable, rowsToOrders, type BatchOrder } from '../../common/batch/rows-to-orders.ts';
import { resolveShipping } from '../../common/batch/shipping-rule.ts';
import { createSkuLookup, type ProjectModels } from '../../common/batch/sku-match.ts';
import { toAlpha2 } from '../../common/orders/countries.ts';
import type { Orders } from '../orders/index.ts';
import type { Quote, ShippingMethod } from '../schemas/orders.ts';
import { changedOrderMessage, differencesFrom, type EarlierOrder } from './earlier-order.ts';
import type { BatchError } from './schemas.ts';
import type { SkuTable } from './sku-table.ts';
import type { BatchRecord, StoredRecord } from './tables.ts';

/** The project's models by name, file name and file name without extension (model-names.ts). */
export type ResolveModelName = (projectId: string) => Promise<ProjectModels>;

export interface ValidatedOrder extends BatchOrder {
  method: ShippingMethod | null;
}

export interface Validation {
  orders: ValidatedOrder[];
  errors: BatchError[];
}

const QUOTE_TTL_MS = 10 * 60_000;
const MODELS_TTL_MS = 60_000;
const QUOTE_CONCURRENCY = 4;

export type Validator = ReturnType<typeof createValidator>;

export interface ValidatorDeps {
  orders: Orders;
  resolveModelName: ResolveModelName;
  skus: SkuTable;
  earlierOrder: (batchId: string, reference: string) => EarlierOrder | null;
  now?: () => number;
}

export function createValidator(deps: ValidatorDeps) {
  const now = deps.now ?? Date.now;
  const lookups = new Map<string, { at: number; lookup: Promise<ProjectModels | null> }>();
  const quotes = new Map<string, { at: number; quote: Promise<Quote> }>();

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

  /** `fresh`: ask again what was asked before this run (`since`), but each distinct quote only once per run. */
  function quoteFor(order: BatchOrder, fresh: boolean, since: number): Promise<Quote> {
    const country = toAlpha2(order.recipient.country) ?? order.recipient.country;
    const models = order.models.map(({ modelId, quantity }) => ({ modelId, quantity }));
    const key = JSON.stringify([country, models]);
    const hit = quotes.get(key);
    if (hit && (fresh ? hit.at >= since : now() - hit.at < QUOTE_TTL_MS)) return hit.quote;
    const quote = deps.orders.quote({ country, models });
    quotes.set(key, { at: now(), quote });
    quote.catch(() => quotes.delete(key));
    return quote;
  }

  /** Rows → orders with their own problems only: no requests. */
  function local(batch: BatchRecord, records: readonly StoredRecord[], models: ProjectModels | null): Validation {
    const problems = checkMapping(batch.header, batch.mapping, batch.constants);
    if (problems.length) {
      const errors = problems.map((p) => ({ row: 1, column: null, field: p.field, message: p.message, kind: 'error' as const }));
      return { orders: [], errors };
    }
    const { orders, errors } = rowsToOrders({
      header: batch.header,
      records,
      mapping: batch.mapping,
      models: models?.byName,
      skus: models ? createSkuLookup(deps.skus.entries(batch.projectId), models) : undefined,
      constants: batch.constants,
      platform: platformById(batch.layout),
      include: batch.include,
    });
    if (batch.mapping.orderReference !== undefined) errors.push(...changedOrders(batch, orders));
    return { orders: orders.map((o) => ({ ...o, method: null })), errors };
  }

  /** Rows that say something else than the order made earlier under their reference (see earlier-order.ts). */
  function changedOrders(batch: BatchRecord, orders: BatchOrder[]): BatchError[] {
    const column = batch.header[batch.mapping.orderReference as number] ?? null;
    const found: BatchError[] = [];
    for (const order of orders) {
      const earlier = isSendable(order) ? deps.earlierOrder(batch.id, order.reference) : null;
      const differences = earlier ? differencesFrom(earlier.fields, order) : [];
      if (!earlier || differences.length === 0) continue;
      const error = { row: order.rows[0], column, field: 'orderReference' as const, message: changedOrderMessage(order.reference, earlier, differences), kind: 'error' as const };
      order.errors.push(error);
      found.push(error);
    }
    return found;
  }

  /** Picks each valid order's method; a quote that fails or offers nothing fitting is that order's problem. */
  async function ship(batch: BatchRecord, orders: ValidatedOrder[], fresh: boolean): Promise<BatchError[]> {
    const queue = new PQueue({ concurrency: QUOTE_CONCURRENCY });
    const added: BatchError[] = [];
    const since = now();
    await Promise.all(
      orders
        .filter(isSendable)
        .map((order) =>
          queue.add(async () => {
            const choice = order.shipping ?? batch.shipping;
            const at = { row: order.shippingAt.row, column: order.shippingAt.column, field: 'shippingMethod' as const, kind: 'error' as const };
            const fail = (message: string) => {
              const error = { ...at, message };
              order.errors.push(error);
              added.push(error);
            };
            try {
              const quote = await quoteFor(order, fresh, since);
              const resolved = resolveShipping(quote.methods, choice, quote.country);
              if (resolved.ok) order.method = resolved.method;
              else fail(resolved.message);
            } catch (error) {
              fail(`Shipping methods could not be fetched for this order: ${error instanceof Error ? error.message : String(error)}`);
            }
          }),
        ),
    );
    return added;
  }

  async function validate(batch: BatchRecord, records: readonly StoredRecord[], options: { fresh?: boolean } = {}): Promise<Validation> {
    const fresh = options.fresh ?? false;
    const { mapping } = batch;
    const needed = mapping.modelName !== undefined || mapping.modelId !== undefined || mapping.sku !== undefined;
    const models = needed ? await modelsOf(batch.projectId, fresh) : null;
    const result = local(batch, records, models);
    const shippingErrors = await ship(batch, result.orders, fresh);
    const errors = [...result.errors, ...shippingErrors].sort((a, b) => a.row - b.row);
    return { orders: result.orders, errors };
  }

  return { validate, models: (projectId: string) => modelsOf(projectId, false), forget: () => (lookups.clear(), quotes.clear()) };
}

/** "Email: Not an email address; Quantity: At least 1" for a report cell. */
export function describeErrors(errors: readonly BatchError[]): string {
  return errors.map((e) => `${e.column ?? (e.field ? FIELD_LABELS[e.field] : 'Row')}: ${e.message}`).join('; ');
}
