// Each order of a batch with the shipping its last check quoted (method, price, delivery window): what the
// review shows beside its rows, the send's confirmation adds up, and the report says of orders not sent.
import type { ShippingMethod } from '../../contract/schemas/orders.ts';
import type { Db } from '../storage/database.ts';

export interface OrderShipping {
  reference: string;
  method: ShippingMethod;
  currency: string;
}

/** Each order's shipping as last quoted by a check of the batch. */
export function batchShipping(db: Db) {
  const put = db.prepare<[string, string, string, string]>(
    `INSERT INTO batch_shipping (batch_id, reference, method, currency) VALUES (?, ?, ?, ?)
     ON CONFLICT (batch_id, reference) DO UPDATE SET method = excluded.method, currency = excluded.currency`,
  );
  const drop = db.prepare<[string, string]>('DELETE FROM batch_shipping WHERE batch_id = ? AND reference = ?');
  return {
    /** The shipping of the given orders (all of the batch's when absent); an order without one loses what it had. */
    putShipping(id: string, shipping: readonly OrderShipping[], references?: readonly string[]) {
      db.transaction(() => {
        if (references) references.forEach((reference) => drop.run(id, reference));
        else db.prepare('DELETE FROM batch_shipping WHERE batch_id = ?').run(id);
        for (const s of shipping) put.run(id, s.reference, JSON.stringify(s.method), s.currency);
      })();
    },
    shipping(id: string): Map<string, OrderShipping> {
      const rows = db.prepare<[string], { reference: string; method: string; currency: string }>('SELECT reference, method, currency FROM batch_shipping WHERE batch_id = ?').all(id);
      return new Map(rows.map((r) => [r.reference, { reference: r.reference, method: JSON.parse(r.method) as ShippingMethod, currency: r.currency }]));
    },
  };
}
