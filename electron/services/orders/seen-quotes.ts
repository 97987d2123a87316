// The quotes last seen, per account, country and parcel: offline, the Quote view shows them "as of" their
// time, and the order form offers their methods with the price seen as the order's ceiling.
import { migrate, type Db } from '../storage/database.ts';
import type { Quote, QuoteRequest, SeenQuote } from '../../contract/schemas/orders.ts';

const MIGRATIONS = [
  (db: Db) =>
    db.exec(`
      CREATE TABLE seen_quotes (
        account TEXT NOT NULL,
        request_key TEXT NOT NULL,
        country TEXT NOT NULL,
        request TEXT NOT NULL,
        quote TEXT NOT NULL,
        quoted_at TEXT NOT NULL,
        PRIMARY KEY (account, request_key)
      );
      CREATE INDEX seen_quotes_country ON seen_quotes (account, country, quoted_at);
    `),
];

/** Parcels kept per country: a batch quotes thousands, and the latest are the ones worth offering. */
const KEPT_PER_COUNTRY = 50;

/** What a quote was asked with, as quotes.ts keys it (the body sent). */
export interface SeenKey {
  key: string;
  country: string;
}

export type SeenQuotes = ReturnType<typeof createSeenQuotes>;

export function createSeenQuotes(db: Db) {
  migrate(db, 'quotes', MIGRATIONS);
  const upsert = db.prepare<[string, string, string, string, string, string]>(
    `INSERT INTO seen_quotes (account, request_key, country, request, quote, quoted_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (account, request_key) DO UPDATE SET request = excluded.request, quote = excluded.quote, quoted_at = excluded.quoted_at`,
  );
  const prune = db.prepare<[string, string, string, string, number]>(
    `DELETE FROM seen_quotes WHERE account = ? AND country = ? AND request_key NOT IN
       (SELECT request_key FROM seen_quotes WHERE account = ? AND country = ? ORDER BY quoted_at DESC LIMIT ?)`,
  );
  const one = db.prepare<[string, string], { quote: string }>('SELECT quote FROM seen_quotes WHERE account = ? AND request_key = ?');
  const ofCountry = db.prepare<[string, string, number], { request: string; quote: string }>(
    'SELECT request, quote FROM seen_quotes WHERE account = ? AND country = ? ORDER BY quoted_at DESC, rowid DESC LIMIT ?',
  );

  return {
    record(account: string, at: SeenKey, request: QuoteRequest, quote: Quote): void {
      db.transaction(() => {
        upsert.run(account, at.key, at.country, JSON.stringify(request), JSON.stringify(quote), quote.quotedAt);
        prune.run(account, at.country, account, at.country, KEPT_PER_COUNTRY);
      })();
    },
    /** The last quote for exactly this request, or null. */
    get(account: string, at: SeenKey): Quote | null {
      const row = one.get(account, at.key);
      return row ? (JSON.parse(row.quote) as Quote) : null;
    },
    /** The country's quotes, newest first. */
    forCountry(account: string, country: string, limit = 10): SeenQuote[] {
      return ofCountry.all(account, country, limit).map((row) => ({ ...(JSON.parse(row.quote) as Quote), request: JSON.parse(row.request) as QuoteRequest }));
    },
  };
}
