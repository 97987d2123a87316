// A form saved over a draft someone else saved meanwhile (another workstation of the team, another
// window): refused, saying what is there now beside what the form holds, so nothing is lost either way.
import type { Draft, DraftFields } from '../../contract/schemas/orders.ts';
import { HostError } from '../api/errors.ts';

const FIELDS: readonly (readonly [string, (fields: DraftFields) => string])[] = [
  ['name', (f) => `${f.recipient.firstName} ${f.recipient.lastName}`.trim()],
  ['street', (f) => f.recipient.streetAddress],
  ['postal code', (f) => f.recipient.postal],
  ['city', (f) => f.recipient.city],
  ['country', (f) => f.recipient.country],
  ['state', (f) => f.recipient.countryState],
  ['phone', (f) => f.recipient.phoneNumber],
  ['e-mail', (f) => f.recipient.email],
  ['models', (f) => f.models.map((m) => `${m.quantity}× ${m.name ?? m.modelId}`).join(', ')],
  ['shipping', (f) => (f.shippingMethod ? `${f.shippingMethod.carrier} ${f.shippingMethod.method}` : f.shippingRule ? JSON.stringify(f.shippingRule.choice) : '')],
];

/** The fields the two differ in, each with the draft's value now and the form's. */
export function differingFields(current: DraftFields, yours: DraftFields): { field: string; now: string; yours: string }[] {
  return FIELDS.map(([field, read]) => ({ field, now: read(current), yours: read(yours) })).filter((d) => d.now !== d.yours);
}

export function editConflict(current: Draft, yours: DraftFields): HostError {
  const differ = differingFields(current, yours);
  const what = differ.length
    ? `: ${differ.map((d) => `${d.field} is now “${d.now || 'empty'}” (yours: “${d.yours || 'empty'}”)`).join('; ')}`
    : '';
  return new HostError('EDIT_CONFLICT', `This order was changed elsewhere while you had it open${what}. Nothing was overwritten. Save again to replace it with yours.`, {
    details: { current },
  });
}
