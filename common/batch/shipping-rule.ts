// How a batch row says which shipping method it wants, and picking that method from a quote.
import type { ShippingChoice } from '../../electron/services/batch/schemas.ts';

export type { ShippingChoice };

/** The fields of a quoted method that the choice looks at. */
export interface QuotedMethod {
  shippingMethodId: number;
  carrier: string;
  method: string;
  price: number;
  minDeliveryTime: string | null;
  maxDeliveryTime: string | null;
  estimatedDeliveryTime: string | null;
}

/** "cheapest", "fastest", "201", "DHL express", "DHL/express" or "DHL:express"; null when it is none of those. */
export function parseShippingChoice(text: string): ShippingChoice | null {
  const value = text.trim();
  const lower = value.toLowerCase();
  if (lower === 'cheapest' || lower === 'fastest') return { kind: 'rule', rule: lower };
  if (/^\d{1,9}$/.test(value)) return { kind: 'id', id: Number(value) };
  const code = /^([A-Za-z0-9_.-]+)\s*[\s/:]\s*([A-Za-z0-9_.-]+)$/.exec(value);
  return code ? { kind: 'code', carrier: code[1], method: code[2] } : null;
}

export function describeChoice(choice: ShippingChoice): string {
  if (choice.kind === 'rule') return choice.rule;
  if (choice.kind === 'id') return `method ${choice.id}`;
  return `${choice.carrier} ${choice.method}`;
}

export type Resolved<M> = { ok: true; method: M } | { ok: false; message: string };

export function resolveShipping<M extends QuotedMethod>(methods: readonly M[], choice: ShippingChoice, country = 'this country'): Resolved<M> {
  if (methods.length === 0) return { ok: false, message: `The service offers no shipping to ${country} for these models` };
  if (choice.kind === 'id') {
    const found = methods.find((m) => m.shippingMethodId === choice.id);
    return found ? { ok: true, method: found } : { ok: false, message: `Shipping method ${choice.id} is not offered to ${country}; offered: ${offered(methods)}` };
  }
  if (choice.kind === 'code') {
    const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
    const found = methods.find((m) => same(m.carrier, choice.carrier) && same(m.method, choice.method));
    return found ? { ok: true, method: found } : { ok: false, message: `${choice.carrier} ${choice.method} is not offered to ${country}; offered: ${offered(methods)}` };
  }
  return choice.rule === 'cheapest' ? { ok: true, method: [...methods].sort(byPrice)[0] } : fastest(methods);
}

function fastest<M extends QuotedMethod>(methods: readonly M[]): Resolved<M> {
  const timed = methods.filter((m) => deliveryMs(m) !== null);
  if (timed.length === 0) return { ok: false, message: 'The service gives no delivery times, so "fastest" cannot be chosen: give a method id or carrier and method' };
  // Latest promised delivery first (what the customer can count on), then the estimate, then price.
  const sorted = [...timed].sort((a, b) => (deliveryMs(a) as number) - (deliveryMs(b) as number) || time(a.estimatedDeliveryTime) - time(b.estimatedDeliveryTime) || a.price - b.price);
  return { ok: true, method: sorted[0] };
}

const byPrice = (a: QuotedMethod, b: QuotedMethod) => a.price - b.price || (deliveryMs(a) ?? Infinity) - (deliveryMs(b) ?? Infinity) || a.shippingMethodId - b.shippingMethodId;

function deliveryMs(m: QuotedMethod): number | null {
  const value = m.maxDeliveryTime ?? m.estimatedDeliveryTime ?? m.minDeliveryTime;
  const ms = value ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

function time(value: string | null): number {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? Infinity : ms;
}

function offered(methods: readonly QuotedMethod[]): string {
  return methods.map((m) => `${m.shippingMethodId} (${m.carrier} ${m.method})`).join(', ');
}
