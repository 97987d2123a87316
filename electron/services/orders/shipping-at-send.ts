// The shipping an order in the outbox goes with, decided from the service's quote when it is sent: the
// method chosen (or the one a rule picks now), at a price no higher than the user agreed to.
import { describeChoice, resolveShipping } from '../../../common/batch/shipping-rule.ts';
import { countryInSentence } from '../../../common/orders/countries.ts';
import type { DraftFields, Problem, ShippingMethod } from '../../contract/schemas/orders.ts';

export type ShippingAtSend = { ok: true; method: ShippingMethod } | { ok: false; problem: Problem };

/** The most this order may cost to ship: the rule's ceiling, else the price seen with the method chosen. */
export function ceilingOf(fields: Pick<DraftFields, 'shippingMethod' | 'shippingRule'>): number | null {
  return fields.shippingRule?.ceiling ?? fields.shippingMethod?.price ?? null;
}

/**
 * What the order is sent with, given the methods the service offers now. A method chosen must still be
 * offered; a rule picks among what is offered. Either goes at or below the ceiling; above it, or with no
 * price ever seen for a rule, the order waits for the user to accept the price.
 */
export function shippingAtSend(fields: Pick<DraftFields, 'shippingMethod' | 'shippingRule' | 'recipient'>, offered: readonly ShippingMethod[]): ShippingAtSend {
  const chosen = fields.shippingMethod;
  const rule = fields.shippingRule ?? null;
  if (chosen) {
    const now = offered.find((m) => m.shippingMethodId === chosen.shippingMethodId) ?? null;
    if (!now) return problem({ kind: 'method-gone', message: `${chosen.carrier} ${chosen.method} is no longer offered for this destination. Choose another method.`, before: chosen, after: null });
    const ceiling = ceilingOf(fields) ?? chosen.price;
    if (now.price <= ceiling) return { ok: true, method: now };
    const message = rule
      ? 'The shipping price is now above the most you agreed to pay when this order was placed. Accept the new price to send it.'
      : 'The shipping price has changed since this draft was written. Accept the new price to send it.';
    return problem({ kind: 'price-changed', message, before: { ...chosen, price: ceiling }, after: now });
  }
  if (!rule) return problem({ kind: 'invalid', message: 'Choose a shipping method' });
  const country = countryInSentence(fields.recipient.country);
  const picked = resolveShipping(offered, rule.choice, country);
  if (!picked.ok) return problem({ kind: 'method-gone', message: `${picked.message}. Choose a method.`, before: null, after: null });
  const method = picked.method;
  if (rule.ceiling === null) {
    const message = `No price had been seen for “${describeChoice(rule.choice)}” to ${country} when this order was placed. Accept the price the service asks now to send it.`;
    return problem({ kind: 'price-changed', message, before: null, after: method });
  }
  if (method.price <= rule.ceiling) return { ok: true, method };
  const what = rule.choice.kind === 'rule' ? `“${describeChoice(rule.choice)}” now picks ${method.carrier} ${method.method}, which costs` : `${method.carrier} ${method.method} now costs`;
  const message = `${what} more than the most you agreed to pay when this order was placed. Accept the new price to send it.`;
  return problem({ kind: 'price-changed', message, before: { ...method, price: rule.ceiling }, after: method });
}

const problem = (p: Problem): ShippingAtSend => ({ ok: false, problem: p });
