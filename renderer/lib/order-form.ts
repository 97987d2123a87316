// What the order form says and starts with: the fields needing attention by name, what shipping waits for,
// and the shipping rule a new order begins with.
import type { ShippingChoice } from '../../common/batch/shipping-rule.ts';
import type { FieldErrors } from '../../common/orders/validation.ts';
import type { ShippingRule } from '../../electron/contract/schemas/orders.ts';
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

/** "Email, Postal code, Models": each field once, a model line's problems as "Models". */
export function fieldNames(errors: FieldErrors): string {
  const names = Object.keys(errors).map((key) => LABELS[key] ?? (key.startsWith('models.') ? 'Models' : key));
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
