import type { ApiClient } from '../api/client.ts';
import { HostError, isUnreachable } from '../api/errors.ts';
import { ShippingMethods } from '../api/schemas.ts';
import { toAlpha2 } from '../../../common/orders/countries.ts';
import { validateQuote } from '../../../common/orders/validation.ts';
import type { Quote, QuoteRequest, SeenQuote } from '../../contract/schemas/orders.ts';
import type { SeenKey } from './seen-quotes.ts';

// The spec shows no currency; the sandbox prices in euro cents (docs/api-assumptions.md).
export const DEFAULT_CURRENCY = 'EUR';
const CACHE_MS = 10 * 60_000;

/** Where quotes are kept once seen, for the signed-in account (see seen-quotes.ts). */
export interface QuoteMemory {
  record(at: SeenKey, request: QuoteRequest, quote: Quote): void;
  get(at: SeenKey): Quote | null;
  forCountry(country: string): SeenQuote[];
}

export type Quotes = ReturnType<typeof createQuotes>;

/** The country as the service is asked for it (ISO alpha-2, upper case). */
export const quoteCountry = (country: string) => (toAlpha2(country) ?? country).toUpperCase();

/** Shipping quotes, with the form's own checks first and a short cache the outbox shares. */
export function createQuotes(client: () => ApiClient, now: () => number = Date.now, memory?: QuoteMemory) {
  const cache = new Map<string, { at: number; quote: Quote }>();

  function body(request: QuoteRequest) {
    const country = quoteCountry(request.country);
    if (request.models) return { country, models: request.models.map(({ modelId, quantity }) => ({ modelId, quantity })) };
    const pkg = request.package;
    const dims = pkg && pkg.length !== null && pkg.width !== null && pkg.height !== null ? { length: pkg.length, width: pkg.width, height: pkg.height } : {};
    return { country, package: { weight: pkg?.weight, ...dims } };
  }

  /**
   * `maxAgeMs`: how old a cached quote may be (0 asks the service; default 10 minutes). `orLastSeen`: when
   * the service cannot be reached, the last quote seen for the same request, marked `offline` (never for
   * the outbox, which must not place an order at a price the service no longer gives).
   */
  async function get(request: QuoteRequest, options: { maxAgeMs?: number; orLastSeen?: boolean } = {}): Promise<Quote> {
    const errors = validateQuote(request);
    const [field] = Object.keys(errors);
    if (field) throw new HostError('INCORRECT_PARAMETERS', errors[field], { details: { field, fields: errors } });
    const payload = body(request);
    const key = JSON.stringify(payload);
    const seenKey = { key, country: payload.country };
    const hit = cache.get(key);
    if (hit && now() - hit.at < (options.maxAgeMs ?? CACHE_MS)) return hit.quote;
    const data = await client()
      .call('getShippingMethods', ShippingMethods, { body: payload })
      .catch((error: unknown) => {
        const kept = options.orLastSeen && isUnreachable(error) ? memory?.get(seenKey) : null;
        if (kept) return { kept };
        throw error;
      });
    if ('kept' in data) return { ...data.kept, offline: true };
    const quotedAt = new Date(now()).toISOString();
    // Each method carries when it was quoted: a draft keeps the one chosen, and the outbox says how old its price is.
    const quote: Quote = {
      country: payload.country,
      methods: data.methods.map((method) => ({ ...method, quotedAt })),
      currency: data.currency ?? DEFAULT_CURRENCY,
      quotedAt,
    };
    cache.set(key, { at: now(), quote });
    memory?.record(seenKey, request, quote);
    return quote;
  }

  return {
    get,
    /** The quotes last seen for a country, newest first. */
    seen: (country: string): SeenQuote[] => memory?.forCountry(quoteCountry(country)) ?? [],
    forget: () => cache.clear(),
  };
}
