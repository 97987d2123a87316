// What the order form says and starts with: the fields needing attention by name, what shipping waits for,
// and the shipping rule a new order begins with.
import type { ShippingChoice } from '../../common/batch/shipping-rule.ts';
import type { FieldErrors } from '../../common/orders/validation.ts';
import type { AppError } from '../../electron/contract/channels.ts';
import type { ShippingMethod, ShippingRule } from '../../electron/contract/schemas/orders.ts';
import { formatMoney } from './format.ts';
import type { OrderFormStart } from './state/nav.svelte.ts';

const LABELS: Record<string, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  streetAddress: 'Street and number',
  postal: 'Postal code',
  city: 'City',
  country: 'Country',
  countryState: 'State or province',
  email: 'Email',
  phoneNumber: 'Phone',
  models: 'Models',
  shippingMethod: 'Shipping',
};

/** The form's order of its fields (LABELS is written in it): the problems are named as the form reads. */
const PLACE = new Map(Object.keys(LABELS).map((key, index) => [key, index]));
const placeOf = (key: string) => PLACE.get(key.startsWith('models.') ? 'models' : key) ?? PLACE.size;

/** "Postal code, Email, Models": each field once, in the form's order, a model line's problems as "Models". */
export function fieldNames(errors: FieldErrors): string {
  const keys = Object.keys(errors).sort((a, b) => placeOf(a) - placeOf(b));
  const names = keys.map((key) => LABELS[key] ?? (key.startsWith('models.') ? 'Models' : key));
  return [...new Set(names)].join(', ');
}

/** What shipping methods wait for, in words ("a country", "models", "a country and models"), or null when nothing. */
export function missingForShipping(country: string, lines: number): string | null {
  const missing = [country.trim() ? null : 'a country', lines > 0 ? null : 'models'].filter(Boolean);
  return missing.length ? missing.join(' and ') : null;
}

/** A new order's rule: the default one, unless it starts with a method (from a quote) or is a draft. */
export function startingRule(start: OrderFormStart, defaultShipping: ShippingChoice | null): ShippingRule | null {
  if (start.draftId || start.shippingMethod || !defaultShipping) return null;
  return { choice: defaultShipping, ceiling: null, seenAt: null };
}

/**
 * What a shipping price is quoted for: the country and each model's quantity. A method chosen for one parcel is
 * priced again for another (its price and delivery window are the parcel's, not the method's).
 */
export function parcelOf(country: string, lines: readonly { modelId: string; quantity: number | string }[]): string {
  return `${country.trim().toUpperCase()} ${lines.map((l) => `${l.modelId}×${Number(l.quantity)}`).join(',')}`;
}

/** Place pressed as the parcel was being priced again, and the price changed: said, and not placed. */
export function repricedError(method: ShippingMethod, currency = 'EUR'): AppError {
  return { code: 'INVALID_INPUT', message: `Shipping for this parcel costs ${formatMoney(method.price, currency)}, priced again as you changed it: check it, then place the order.`, retryable: false };
}
