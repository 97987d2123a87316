import type { ApiClient } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import { ShippingMethods } from '../api/schemas.ts';
import { toAlpha2 } from '../../common/orders/countries.ts';
import { validateQuote } from '../../common/orders/validation.ts';
import type { Quote, QuoteRequest } from '../schemas/orders.ts';

// The spec shows no currency; the sandbox prices in euro cents (docs/api-assumptions.md).
const DEFAULT_CURRENCY = 'EUR';
const CACHE_MS = 10 * 60_000;

export type Quotes = ReturnType<typeof createQuotes>;

/** Shipping quotes, with the form's own checks first and a short cache the outbox shares. */
export function createQuotes(client: () => ApiClient, now: () => number = Date.now) {
  const cache = new Map<string, { at: number; quote: Quote }>();

  function body(request: QuoteRequest) {
    const country = (toAlpha2(request.country) ?? request.country).toUpperCase();
    if (request.models) return { country, models: request.models.map(({ modelId, quantity }) => ({ modelId, quantity })) };
    const pkg = request.package;
    const dims = pkg && pkg.length !== null && pkg.width !== null && pkg.height !== null ? { length: pkg.length, width: pkg.width, height: pkg.height } : {};
    return { country, package: { weight: pkg?.weight, ...dims } };
  }

  /** `maxAgeMs`: how old a cached quote may be (0 asks the service; default 10 minutes). */
  async function get(request: QuoteRequest, options: { maxAgeMs?: number } = {}): Promise<Quote> {
    const errors = validateQuote(request);
    const [field] = Object.keys(errors);
    if (field) throw new HostError('INCORRECT_PARAMETERS', errors[field], { details: { field, fields: errors } });
    const payload = body(request);
    const key = JSON.stringify(payload);
    const hit = cache.get(key);
    if (hit && now() - hit.at < (options.maxAgeMs ?? CACHE_MS)) return hit.quote;
    const data = await client().call('getShippingMethods', ShippingMethods, { body: payload });
    const quotedAt = new Date(now()).toISOString();
    // Each method carries when it was quoted: a draft keeps the one chosen, and the outbox says how old its price is.
    const quote: Quote = {
      country: payload.country,
      methods: data.methods.map((method) => ({ ...method, quotedAt })),
      currency: data.currency ?? DEFAULT_CURRENCY,
      quotedAt,
    };
    cache.set(key, { at: now(), quote });
    return quote;
  }

  return { get, forget: () => cache.clear() };
}
