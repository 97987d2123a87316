// A country as shop exports write it: a code (kept as written, the service takes alpha-2 and alpha-3), or a
// full name in English or a neighbouring language, read as its code and said so. A name that fits more
// than one place (Georgia, Jersey, Congo, …) is never guessed: the row says which codes it could be.
import countries from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json' with { type: 'json' };
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import es from 'i18n-iso-countries/langs/es.json' with { type: 'json' };
import fr from 'i18n-iso-countries/langs/fr.json' with { type: 'json' };
import it from 'i18n-iso-countries/langs/it.json' with { type: 'json' };
import nl from 'i18n-iso-countries/langs/nl.json' with { type: 'json' };
import { toAlpha2 } from '../orders/countries.ts';

// The languages of the shops' own exports (eBay.de, Etsy in French…), beside English.
const LOCALES = [en, de, fr, nl, es, it];
for (const locale of LOCALES) countries.registerLocale(locale);

export type CountryReading = { ok: true; code: string; readFrom?: string } | { ok: false; message: string };

/** Names that are also another place: each with what it could be, for the row's message. */
const AMBIGUOUS: Record<string, string> = {
  georgia: 'the country Georgia (GE) or the US state (US)',
  jersey: 'the island of Jersey (JE) or New Jersey (US)',
  congo: 'the Republic of the Congo (CG) or the Democratic Republic of the Congo (CD)',
  korea: 'South Korea (KR) or North Korea (KP)',
  'virgin islands': 'the British Virgin Islands (VG) or the US Virgin Islands (VI)',
};

/** Names people and shops use that the ISO lists do not carry. */
const OTHER_NAMES: Record<string, string> = {
  uk: 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'northern ireland': 'GB',
  'great britain': 'GB',
  holland: 'NL',
  laos: 'LA',
  syria: 'SY',
  moldova: 'MD',
  brunei: 'BN',
  macau: 'MO',
  burma: 'MM',
  'east timor': 'TL',
  swaziland: 'SZ',
  'vatican city': 'VA',
  uae: 'AE',
  'hong kong sar': 'HK',
  'viet nam': 'VN',
  macedonia: 'MK',
};

/** Lower case, accents, "the", dots and brackets gone, "St." as "saint": "The Netherlands" is "netherlands". */
export function countryKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.'’()]/g, ' ')
    .replace(/[,&-]/g, ' ')
    .replace(/\bst\b/g, 'saint')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^the /, '');
}

let byName: Map<string, Set<string>> | null = null;

function names(): Map<string, Set<string>> {
  if (byName) return byName;
  byName = new Map();
  const add = (name: string, code: string) => {
    const key = countryKey(name);
    const codes = byName?.get(key) ?? new Set<string>();
    codes.add(code);
    byName?.set(key, codes);
  };
  for (const locale of LOCALES) {
    for (const [code, value] of Object.entries(countries.getNames(locale.locale, { select: 'all' }) as Record<string, string[]>)) {
      for (const name of value) add(name, code);
    }
  }
  for (const [name, code] of Object.entries(OTHER_NAMES)) add(name, code);
  return byName;
}

export function readCountry(text: string): CountryReading {
  const written = text.trim();
  if (!written || toAlpha2(written)) return { ok: true, code: written };
  const key = countryKey(written);
  const ambiguous = AMBIGUOUS[key];
  if (ambiguous) return { ok: false, message: `"${written}" could be ${ambiguous}: give the country's ISO code` };
  const codes = [...(names().get(key) ?? [])];
  if (codes.length === 1) return { ok: true, code: codes[0], readFrom: written };
  if (codes.length > 1) return { ok: false, message: `"${written}" could be ${codes.join(' or ')}: give the country's ISO code` };
  // Not a name either: the rules say so (a code too long, or no such country).
  return { ok: true, code: written };
}
