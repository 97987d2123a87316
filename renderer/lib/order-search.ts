import type { Draft } from '../../electron/schemas/orders.ts';
import { countryName } from '../../common/orders/countries.ts';

/**
 * Whether an order matches what was typed: every word must be found in the recipient (name, e-mail, phone,
 * street, postal code, city, country), the order reference or the service's order number, ignoring case and
 * accents. "ana porto" finds Ana Sousa of Porto.
 */
export function orderMatches(draft: Draft, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const r = draft.recipient;
  const text = fold(
    [r.firstName, r.lastName, r.email, r.phoneNumber, r.streetAddress, r.postal, r.city, r.country, r.country ? countryName(r.country) : '', draft.orderReference, draft.order?.orderId ?? ''].join(' '),
  );
  return words.every((word) => text.includes(word));
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLocaleLowerCase();
