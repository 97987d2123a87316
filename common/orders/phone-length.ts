// Whether a phone number has a length the country's numbers can have: the warning "a phone number's length"
// of the order form and batch. libphonenumber answers it (validatePhoneNumberLength), parsing the whole
// number each time; a batch of 10,000 orders asks 10,000 times, so the common answer (it fits) is read first
// from the same library's metadata (the country's calling code, trunk prefix and possible lengths), and
// anything else is left to the full parse.
import { getCountries, getCountryCallingCode, isSupportedCountry, Metadata, validatePhoneNumberLength, type CountryCode } from 'libphonenumber-js';

export type PhoneLength = 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_LENGTH' | 'NOT_A_NUMBER' | 'INVALID_COUNTRY' | undefined;

interface Plan {
  callingCode: string;
  trunkPrefix: string | null;
  /** how a number dialled abroad from the country starts (00, 011, …): such a number is left to the full parse */
  exitCode: RegExp | null;
  lengths: ReadonlySet<number>;
}

const plans = new Map<string, Plan | null>();
const metadata = new Metadata();
let byCallingCode: Map<string, CountryCode[]> | null = null;

/** The countries of each calling code: +1, +7, +44 and others are shared. */
function countriesOf(callingCode: string): CountryCode[] {
  if (!byCallingCode) {
    byCallingCode = new Map();
    for (const country of getCountries()) {
      const code = getCountryCallingCode(country);
      byCallingCode.set(code, [...(byCallingCode.get(code) ?? []), country]);
    }
  }
  return byCallingCode.get(callingCode) ?? [];
}

function planOf(country: string): Plan | null {
  let plan = plans.get(country);
  if (plan === undefined) {
    plan = isSupportedCountry(country) ? readPlan(country) : null;
    plans.set(country, plan);
  }
  return plan;
}

function numberingOf(country: CountryCode) {
  metadata.selectNumberingPlan(country);
  // The numbering plan's accessors are libphonenumber's own; its type declarations leave them out.
  return (metadata as unknown as { numberingPlan: { possibleLengths(): number[]; nationalPrefixForParsing(): string | undefined; IDDPrefix(): string | undefined } }).numberingPlan;
}

/**
 * A shared calling code's number is checked against the country the number's digits point to; a length
 * every country of the code allows fits whichever that is.
 */
function readPlan(country: CountryCode): Plan {
  const callingCode = getCountryCallingCode(country);
  const lengths = countriesOf(callingCode)
    .map((sharing) => new Set(numberingOf(sharing).possibleLengths()))
    .reduce((all, next) => new Set([...all].filter((n) => next.has(n))));
  const numbering = numberingOf(country);
  const prefix = numbering.nationalPrefixForParsing();
  const exit = numbering.IDDPrefix();
  return {
    callingCode,
    trunkPrefix: prefix && /^\d+$/.test(prefix) ? prefix : null,
    exitCode: exit ? new RegExp(`^(?:${exit})`) : null,
    lengths,
  };
}

/** undefined when the number's length is one the country's numbers have; else libphonenumber's reason. */
export function phoneLength(phone: string, country: string): PhoneLength {
  const plan = planOf(country);
  if (plan) {
    const digits = phone.replace(/\D/g, '');
    const international = phone.trimStart().startsWith('+');
    const national = international
      ? digits.startsWith(plan.callingCode) ? digits.slice(plan.callingCode.length) : null
      : plan.exitCode?.test(digits) ? null
      : plan.trunkPrefix && digits.startsWith(plan.trunkPrefix) ? digits.slice(plan.trunkPrefix.length)
      : digits;
    if (national !== null && plan.lengths.has(national.length)) return undefined;
  }
  return validatePhoneNumberLength(phone, country as CountryCode);
}
