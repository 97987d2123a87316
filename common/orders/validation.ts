// The rules an order and a quote must meet, shared by the form (as the user types), the host
// (before anything is queued) and batch import. Pure: no DOM, no Node.
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { countryInSentence, needsState, toAlpha2 } from './countries.ts';
import { MAX_MODEL_LINES, MAX_QUANTITY } from './limits.ts';
import { phoneLength } from './phone-length.ts';
import type { ModelLine, PackageSpec, Recipient } from '../../electron/contract/schemas/orders.ts';

export { MAX_MODEL_LINES };

export type FieldErrors = Record<string, string>;
export type { ModelLine, PackageSpec, Recipient };

/** A model or order id as the service writes them. */
export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Every id within a text, such as a service message. */
export const GUIDS_IN_TEXT = new RegExp(GUID.source.slice(1, -1), 'gi');
// The service's own test (docs/api-assumptions.md, CreateOrder): one @, a dot in the domain, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LIMITS: Record<keyof Recipient, number> = {
  firstName: 100,
  lastName: 100,
  streetAddress: 200,
  postal: 20,
  city: 100,
  country: 3,
  countryState: 100,
  phoneNumber: 30,
  email: 254,
};
/**
 * What the service accepts on a label (docs/api-assumptions.md, CreateOrder): libphonenumber also takes
 * "ext. 12" and vanity letters, which the service refuses, so the form says so before the order is sent.
 */
const LABEL_PHONE = /^\+?[0-9 ()./-]{5,30}$/;

const LIMIT_ENTRIES = Object.entries(LIMITS) as [keyof Recipient, number][];
const REQUIRED: readonly (keyof Recipient)[] = ['firstName', 'lastName', 'streetAddress', 'postal', 'city', 'email'];
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function validateCountry(country: string): string | null {
  if (!country.trim()) return 'Country is not set';
  if (country.trim().length > 3) return `No country is called "${country.trim()}": pick one from the list, or give its 2- or 3-letter ISO code`;
  return toAlpha2(country) ? null : `${country.trim().toUpperCase()} is not a known country code`;
}

/**
 * The rules the service states (spec 2.6 and docs/api-assumptions.md, which stands for it): an order that
 * breaks one is refused, so these block, in the form, the outbox and a batch alike.
 */
/** Why the service would refuse a phone number within the length cap: what it holds, or too few of them. */
function phoneProblem(phone: string): string {
  if (/[^0-9 ()./-]/.test(phone.replace(/^\+/, ''))) return 'Only digits, spaces, a leading +, and - . / ( ): leave out extensions and letters';
  return 'Too short: the service takes 5 to 30 digits and signs after the +';
}

export function validateRecipient(recipient: Recipient): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of REQUIRED) if (!recipient[field].trim()) errors[field] = 'Required';
  for (const [field, max] of LIMIT_ENTRIES) {
    if (errors[field]) continue;
    if (recipient[field].trim().length > max) errors[field] = `At most ${max} characters`;
    else if (CONTROL.test(recipient[field])) errors[field] = 'Contains control characters (invisible characters that labels cannot print)';
  }
  if (!errors.email && !EMAIL.test(recipient.email.trim())) errors.email = 'Not an email address';
  const countryError = validateCountry(recipient.country);
  if (countryError) errors.country = countryError;
  const phone = recipient.phoneNumber.trim();
  if (phone && !errors.phoneNumber && !LABEL_PHONE.test(phone)) errors.phoneNumber = phoneProblem(phone);
  return errors;
}

/**
 * Rules of our own, from what carriers usually want: a state for the countries that write one on labels, a
 * postal code of the country's shape, a phone number of a length the country's numbers have. The service
 * does not make them, so they are said beside the field and the order goes as it is.
 */
export function recipientWarnings(recipient: Recipient): FieldErrors {
  const warnings: FieldErrors = {};
  const alpha2 = toAlpha2(recipient.country);
  if (!alpha2) return warnings;
  const postal = recipient.postal.trim();
  if (postal && postcodeValidatorExistsForCountry(alpha2) && !postcodeValidator(postal, alpha2)) {
    warnings.postal = `Not shaped like a postal code of ${countryInSentence(alpha2)}: check it (it is sent as it is)`;
  }
  if (needsState(alpha2) && !recipient.countryState.trim()) warnings.countryState = `Carriers to ${countryInSentence(alpha2)} usually want a state or province`;
  const phone = recipient.phoneNumber.trim();
  const length = phone && LABEL_PHONE.test(phone) ? phoneLength(phone, alpha2) : undefined;
  if (length && length !== 'INVALID_COUNTRY') {
    const what = length === 'TOO_SHORT' ? 'Too short for' : length === 'TOO_LONG' ? 'Too long for' : 'Not of a length of';
    warnings.phoneNumber = `${what} a phone number of ${countryInSentence(alpha2)}: check it (it is sent as it is)`;
  }
  return warnings;
}

export function validateModelLines(lines: readonly ModelLine[]): FieldErrors {
  const errors: FieldErrors = {};
  if (lines.length === 0) errors.models = 'Add at least one model';
  if (lines.length > MAX_MODEL_LINES) errors.models = `An order holds at most ${MAX_MODEL_LINES} different models; this one has ${lines.length}`;
  lines.forEach((line, index) => {
    if (!GUID.test(line.modelId)) errors[`models.${index}.modelId`] = 'Not a model id';
    if (!Number.isInteger(line.quantity) || line.quantity < 1) errors[`models.${index}.quantity`] = 'Quantity: a whole number, at least 1';
    else if (line.quantity > MAX_QUANTITY) errors[`models.${index}.quantity`] = `Quantity: at most ${MAX_QUANTITY.toLocaleString('en-US')} of one model in an order`;
  });
  return errors;
}

/**
 * A number as a person types it: a decimal comma is a decimal point ("12,5"), blank is no value, and
 * anything else that is not a plain number is NaN, for the validation to name rather than to show.
 */
export function typedNumber(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The largest weight or side the service takes (docs/api-assumptions.md). */
const MAX_PACKAGE_VALUE = 1e9;

/** Spec 4.1 rules 1, 4 and 5, with the service's own wording where it has one. */
export function validatePackage(spec: PackageSpec): FieldErrors {
  const errors: FieldErrors = {};
  if (spec.weight !== null && Number.isNaN(spec.weight)) errors.weight = 'Not a number: give the weight in grams, such as 250 or 12.5';
  else if (spec.weight === null || !(spec.weight > 0)) errors.weight = 'Package weight is required and must be greater than 0 grams';
  // The service answers a weight past its limit with its "greater than 0" message, which misleads.
  else if (spec.weight > MAX_PACKAGE_VALUE) errors.weight = 'Package weight is too large: give it in grams, such as 800 for 0.8 kg';
  const dims = [spec.length, spec.width, spec.height];
  if (dims.some((d) => d !== null && Number.isNaN(d))) {
    errors.dimensions = 'Not a number: give length, width and height in centimetres, such as 30 or 12.5';
    return errors;
  }
  const given = dims.filter((d) => d !== null);
  // Said more plainly than the service's one message for both cases (which fieldOfServiceMessage still knows).
  if (given.length > 0 && given.length < 3) errors.dimensions = 'Give all three of length, width and height, or none of them';
  else if (given.some((d) => !(d !== null && d > 0))) errors.dimensions = 'Length, width and height must each be more than 0 cm';
  return errors;
}

export interface QuoteInput {
  country: string;
  models?: ModelLine[];
  package?: PackageSpec;
}

export function validateQuote(input: QuoteInput): FieldErrors {
  const errors: FieldErrors = {};
  const countryError = validateCountry(input.country);
  if (countryError) errors.country = countryError;
  if (input.models && input.package) errors.models = 'Give either models or a package, not both';
  else if (input.models) Object.assign(errors, validateModelLines(input.models));
  else if (input.package) Object.assign(errors, validatePackage(input.package));
  else errors.models = 'Either models or package is required';
  return errors;
}

/** Which form field a service INCORRECT_PARAMETERS message is about (spec 7's validation table). */
export function fieldOfServiceMessage(message: string): string | null {
  const m = message.toLowerCase();
  if (m.includes('country')) return 'country';
  if (m.includes('weight')) return 'weight';
  if (m.includes('length, width and height') || m.includes('dimension')) return 'dimensions';
  if (m.includes('models') || m.includes('model ')) return 'models';
  if (m.includes('shipping method') || m.includes('shippingmethod')) return 'shippingMethod';
  for (const field of Object.keys(LIMITS)) if (m.includes(field.toLowerCase())) return field;
  if (m.includes('e-mail') || m.includes('email')) return 'email';
  if (m.includes('phone')) return 'phoneNumber';
  return null;
}
