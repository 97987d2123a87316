// The Quote view's form as it was left, for the next visit: a shop comparing destinations goes to the
// library or an order and back, and found the view empty again. Kept for one account's project, in memory.
import type { ModelLine, Quote } from '../../../electron/contract/schemas/orders.ts';

export interface KeptQuote {
  /** whose and which project's form it is */
  key: string;
  mode: 'models' | 'package';
  country: string;
  lines: ModelLine[];
  /** the parcel's fields as typed */
  parcel: { weight: string; length: string; width: string; height: string };
  quote: Quote | null;
  quotedFor: string;
}

let kept: KeptQuote | null = null;

/** The form last left for `key`, if any. */
export const keptQuote = (key: string): KeptQuote | null => (kept?.key === key ? kept : null);

export const keepQuote = (form: KeptQuote): void => {
  kept = form;
};
