// Countries from a maintained list (i18n-iso-countries), for pickers and validation on both sides.
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(en);

export interface CountryOption {
  alpha2: string;
  alpha3: string;
  name: string;
  /** Other names people type, lower case ("uk", "great britain", "usa") */
  aliases: string[];
}

/** Countries whose carriers need a state or province on the label. */
const STATE_REQUIRED = new Set(['US', 'CA', 'AU', 'BR', 'MX', 'IN', 'AR', 'CN', 'JP', 'MY', 'IE', 'IT', 'ES']);

let cached: CountryOption[] | null = null;

export function countryOptions(): CountryOption[] {
  const all = countries.getNames('en', { select: 'all' }) as Record<string, string[]>;
  cached ??= Object.entries(countries.getNames('en', { select: 'official' }))
    .map(([alpha2, name]) => ({ alpha2, alpha3: countries.alpha2ToAlpha3(alpha2) ?? '', name, aliases: (all[alpha2] ?? []).filter((a) => a !== name).map((a) => a.toLowerCase()) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return cached;
}

/** Alpha-2 for an alpha-2 or alpha-3 code in any case, or null when it is not a country. */
export function toAlpha2(code: string): string | null {
  const upper = code.trim().toUpperCase();
  if (upper.length === 2) return countries.isValid(upper) ? upper : null;
  if (upper.length === 3) return countries.alpha3ToAlpha2(upper) ?? null;
  return null;
}

/** The country a person typed: a code, or a name or common alias in any case ("germany", "UK"). */
export function alpha2FromText(text: string): string | null {
  const trimmed = text.trim();
  return toAlpha2(trimmed) ?? countries.getAlpha2Code(trimmed, 'en') ?? null;
}

const names = new Map<string, string>();

/** The country's English name ("Netherlands"), or the code as given when it is none; kept, as a list of thousands of orders asks it for each. */
export function countryName(code: string): string {
  let name = names.get(code);
  if (name === undefined) {
    const alpha2 = toAlpha2(code);
    names.set(code, (name = (alpha2 && countries.getName(alpha2, 'en')) || code));
  }
  return name;
}

/** Names said with "the": plurals (islands, the Netherlands), states named by their form (a republic, a kingdom), and a few by custom. */
const PLURAL = /(Islands|Territories|Territory|Bahamas|Comoros|Maldives|Netherlands|Philippines|Seychelles)$/;
const FORMAL = /\b(Republic|Federation|Kingdom|Emirates|States)\b/;
const BY_CUSTOM = new Set(['GM', 'IM']);
/** Where the English display name reads badly in a sentence: what a sentence says instead, article and all. */
const SAID: Record<string, string> = {
  CG: 'the Republic of the Congo', CD: 'the Democratic Republic of the Congo', HK: 'Hong Kong', MO: 'Macao',
  GS: 'South Georgia and the South Sandwich Islands', VC: 'Saint Vincent and the Grenadines',
};

let regions: Intl.DisplayNames | null | undefined;
/** The name people use ("Moldova", "United States"), where the ISO list's is formal ("Moldova, Republic of"), written out ("Saint Lucia", "Trinidad and Tobago"). */
function commonName(alpha2: string): string | undefined {
  if (regions === undefined) {
    try {
      regions = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      regions = null;
    }
  }
  const name = regions?.of(alpha2);
  if (!name || name === alpha2) return undefined;
  return name.replaceAll(' & ', ' and ').replace(/\bSt\. /g, 'Saint ').replace(/ \([^)]*\)/g, '');
}

/**
 * The country's name as a sentence says it: "Spain", "the Netherlands", "the United States", "Moldova".
 * An unknown code stays the code.
 */
export function countryInSentence(code: string): string {
  const alpha2 = toAlpha2(code);
  if (!alpha2) return code;
  if (SAID[alpha2]) return SAID[alpha2];
  const name = commonName(alpha2) ?? countryName(code);
  return PLURAL.test(name) || FORMAL.test(name) || BY_CUSTOM.has(alpha2) ? `the ${name}` : name;
}

export function needsState(code: string): boolean {
  const alpha2 = toAlpha2(code);
  return alpha2 !== null && STATE_REQUIRED.has(alpha2);
}

/** Matches by code or by any part of the name, best matches first. */
export function searchCountries(query: string, limit = 12): CountryOption[] {
  const q = query.trim().toLowerCase();
  if (!q) return countryOptions().slice(0, limit);
  const scored = countryOptions()
    .map((c) => {
      const name = c.name.toLowerCase();
      const exact = c.alpha2.toLowerCase() === q || c.alpha3.toLowerCase() === q || c.aliases.includes(q);
      const score = exact ? 0 : name.startsWith(q) || c.aliases.some((a) => a.startsWith(q)) ? 1 : name.includes(` ${q}`) ? 2 : name.includes(q) ? 3 : -1;
      return { c, score };
    })
    .filter((entry) => entry.score >= 0)
    // Among equal matches the shorter name first: "United States of America" before "… Minor Outlying Islands".
    .sort((a, b) => a.score - b.score || a.c.name.length - b.c.name.length || a.c.name.localeCompare(b.c.name));
  return scored.slice(0, limit).map((entry) => entry.c);
}
