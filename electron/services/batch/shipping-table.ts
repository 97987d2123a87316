// Each order of a batch with the shipping its last check quoted (method, price, delivery window): what the
// review shows beside its rows, the send's confirmation adds up, and the report says of orders not sent.
import type { ShippingMethod } from '../../contract/schemas/orders.ts';
import { chunksOf, insertMany } from '../storage/many-rows.ts';
import { placeholders, type Sql } from '../storage/sql.ts';

export interface OrderShipping {
  reference: string;
  method: ShippingMethod;
  currency: string;
}

/** Each order's shipping as last quoted by a check of the batch. */
export function batchShipping(sql: Sql) {
  return {
    /** The shipping of the given orders (all of the batch's when absent); an order without one loses what it had. */
    async putShipping(id: string, shipping: readonly OrderShipping[], references?: readonly string[]): Promise<void> {
      // One line an order: the last quote said of it is the one kept.
      const byReference = new Map(shipping.map((s) => [s.reference, [id, s.reference, JSON.stringify(s.method), s.currency]]));
      await sql.transaction(async (tx) => {
        if (!references) await tx.run('DELETE FROM batch_shipping WHERE batch_id = ?', [id]);
        else for (const some of chunksOf(references, 1000)) await tx.run(`DELETE FROM batch_shipping WHERE batch_id = ? AND reference IN (${placeholders(some.length)})`, [id, ...some]);
        await insertMany(tx, 'batch_shipping', ['batch_id', 'reference', 'method', 'currency'], [...byReference.values()], 'ON CONFLICT (batch_id, reference) DO UPDATE SET method = excluded.method, currency = excluded.currency');
      });
    },
    async shipping(id: string): Promise<Map<string, OrderShipping>> {
      const rows = await sql.all<{ reference: string; method: string; currency: string }>('SELECT reference, method, currency FROM batch_shipping WHERE batch_id = ?', [id]);
      return new Map(rows.map((r) => [r.reference, { reference: r.reference, method: JSON.parse(r.method) as ShippingMethod, currency: r.currency }]));
    },
  };
}
