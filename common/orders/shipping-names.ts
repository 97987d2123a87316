// Carriers and methods as people write them, where the service sends codes: the app, the CLI and its reports alike.

/**
 * Carriers as people write them. The service sends codes ("POSTNL"); the known ones have their own
 * spelling, and an unknown code reads as words: short codes stay capitals (they are usually initials,
 * like "UPS"), longer ones get one capital ("SWISS_POST" → "Swiss Post").
 */
const CARRIERS: Record<string, string> = {
  POSTNL: 'PostNL', DHL: 'DHL', DHL_EXPRESS: 'DHL Express', UPS: 'UPS', DPD: 'DPD', GLS: 'GLS', FEDEX: 'FedEx', TNT: 'TNT',
  USPS: 'USPS', BPOST: 'bpost', ROYAL_MAIL: 'Royal Mail', COLISSIMO: 'Colissimo', CHRONOPOST: 'Chronopost', HERMES: 'Hermes',
};

export function carrierName(code: string): string {
  const known = CARRIERS[code.toUpperCase()];
  if (known) return known;
  return code.split(/[_\s]+/).filter(Boolean).map((word) => (word.length <= 3 ? word.toUpperCase() : word[0].toUpperCase() + word.slice(1).toLowerCase())).join(' ');
}

/** Codes written as one word that are two. */
const METHOD_WORDS: Record<string, string> = { servicepoint: 'service point', accesspoint: 'access point', nextday: 'next day', sameday: 'same day' };

/** A delivery method's code as words, first letter capital: "SERVICE_POINT" and "servicepoint" → "Service point". */
export function methodName(code: string): string {
  const lower = code.replaceAll('_', ' ').trim().toLowerCase();
  const words = METHOD_WORDS[lower.replaceAll(' ', '')] ?? lower;
  return words ? words[0].toUpperCase() + words.slice(1) : code;
}

/** A chosen shipping method in one phrase, as the order form and the order list name it: "DHL Service point". */
export function shippingName(method: { carrier: string; method: string }): string {
  return `${carrierName(method.carrier)} ${methodName(method.method)}`;
}
