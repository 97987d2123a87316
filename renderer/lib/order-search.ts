import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { countryName } from '../../common/orders/countries.ts';

const ASCII = /^[ -~]*$/;

/** Text compared without case or accents: "Zoë" is found by "zoe". Printable ASCII, the common case, skips the decomposition. */
export const fold = (text: string) => (ASCII.test(text) ? text.toLowerCase() : text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLocaleLowerCase());

/**
 * Everything an order is found by, folded: the recipient (name, e-mail, phone, street, postal code, city,
 * country), the order reference, the service's order number, the models' names and the batch file.
 */
export function orderHaystack(draft: Draft): string {
  const r = draft.recipient;
  const models = draft.models.map((line) => line.name ?? '');
  return fold(
    [r.firstName, r.lastName, r.email, r.phoneNumber, r.streetAddress, r.postal, r.city, r.country, r.country ? countryName(r.country) : '', draft.orderReference, draft.order?.orderId ?? '', ...models, draft.batch?.fileName ?? ''].join(' '),
  );
}

/** The words of a search, folded; an order matches when its haystack holds every one. */
export const searchWords = (query: string) => fold(query).split(/\s+/).filter(Boolean);

/**
 * Whether an order matches what was typed: every word must be found in what the order is found by
 * (orderHaystack), ignoring case and accents. "ana porto" finds Ana Sousa of Porto.
 */
export function orderMatches(draft: Draft, query: string): boolean {
  const words = searchWords(query);
  if (words.length === 0) return true;
  const text = orderHaystack(draft);
  return words.every((word) => text.includes(word));
}
