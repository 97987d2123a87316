// Shipping rules as the user reads them, and the ceiling typed beside one.
import { describeChoice, resolveShipping, type ShippingChoice } from '../../common/batch/shipping-rule.ts';
import type { Quote, ShippingMethod, ShippingRule } from '../../electron/contract/schemas/orders.ts';
import { typedNumber } from '../../common/orders/validation.ts';
import { carrierName, formatMoney, methodName } from './format.ts';

/** "Cheapest", "Fastest", "DHL Parcel". */
export function choiceName(choice: ShippingChoice): string {
  if (choice.kind === 'rule') return choice.rule === 'cheapest' ? 'Cheapest' : 'Fastest';
  if (choice.kind === 'code') return `${carrierName(choice.carrier)} ${methodName(choice.method)}`;
  return describeChoice(choice);
}

/** A rule in one phrase, as the order list and form name it: "Cheapest, at most €7.00". */
export function ruleName(rule: ShippingRule, currency = 'EUR'): string {
  const ceiling = rule.ceiling === null ? 'price to be agreed when sent' : `at most ${formatMoney(rule.ceiling, currency)}`;
  return `${choiceName(rule.choice)}, ${ceiling}`;
}

/** The method a rule picks among those of a quote, or null when it picks none. */
export function pickedBy(choice: ShippingChoice, quote: Quote | null): ShippingMethod | null {
  if (!quote) return null;
  const picked = resolveShipping(quote.methods, choice);
  return picked.ok ? picked.method : null;
}

/** Money as typed ("7,50", "7.5") in cents; null when empty, NaN when not a price. */
export function typedCents(text: string): number | null {
  const value = typedNumber(text);
  if (value === null) return null;
  return Number.isNaN(value) || value < 0 ? Number.NaN : Math.round(value * 100);
}

/** Cents as the ceiling field shows them: "7.50". */
export const centsText = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(2));
