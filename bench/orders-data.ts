// Ten thousand orders of a print shop in the app's own store, as the outbox and the batches leave them:
// most placed and moved on by the service, some from three batch files, some drafts, some waiting in the
// outbox, some rejected or held for a new price. Written straight into the SQLite file the app opens.
import { randomUUID } from 'node:crypto';
import { placeholders } from '../electron/services/storage/sql.ts';
import { sqliteSql } from '../electron/services/storage/sqlite-sql.ts';
import { createBatchTables } from '../electron/services/batch/tables.ts';
import { createOrdersStore } from '../electron/services/orders/store.ts';
import { emptyOrderContent } from '../common/orders/empty.ts';
import type { Draft, DraftFields, ShippingMethod } from '../electron/contract/schemas/orders.ts';
import type { Db } from '../electron/services/storage/database.ts';

const FIRST = ['Ada', 'Grace', 'Alan', 'Katherine', 'Margaret', 'Linus', 'Zoë', 'Jean', 'Edsger', 'Barbara', 'Hedy', 'Tim', 'Anna', 'Björn', 'Chloé', 'Dmitri'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Hamilton', 'Torvalds', 'Martins', 'Bartik', 'Dijkstra', 'Liskov', 'Lamarr', 'Berners-Lee', 'Müller', 'Andersson'];
const PLACES = [
  ['NL', 'Amsterdam', '1012 LG'], ['DE', 'Berlin', '10117'], ['FR', 'Lyon', '69002'], ['BE', 'Gent', '9000'], ['PT', 'Porto', '4000-322'],
  ['ES', 'Madrid', '28013'], ['IT', 'Milano', '20121'], ['AT', 'Wien', '1010'], ['DK', 'København', '1050'], ['SE', 'Stockholm', '111 52'],
  ['PL', 'Kraków', '31-042'], ['IE', 'Dublin', 'D02 X285'], ['GB', 'London', 'SW1A 1AA'], ['US', 'New York', '10001'], ['CH', 'Zürich', '8001'],
];
const MODELS = ['Bracket', 'Housing', 'Knob', 'Gear 24T', 'Hinge', 'Lamp shade', 'Phone stand', 'Cable clip'];
const METHODS: Omit<ShippingMethod, 'price'>[] = [
  { shippingMethodId: 101, carrier: 'POSTNL', method: 'standard', servicePoint: false, minDeliveryTime: '2026-11-26T09:00:00Z', maxDeliveryTime: '2026-11-30T18:00:00Z', estimatedDeliveryTime: '2026-11-27T14:00:00Z' },
  { shippingMethodId: 102, carrier: 'POSTNL', method: 'pickup', servicePoint: true, minDeliveryTime: '2026-11-26T09:00:00Z', maxDeliveryTime: '2026-11-30T18:00:00Z', estimatedDeliveryTime: '2026-11-27T14:00:00Z' },
  { shippingMethodId: 201, carrier: 'DHL', method: 'parcel', servicePoint: false, minDeliveryTime: '2026-11-26T09:00:00Z', maxDeliveryTime: '2026-11-27T18:00:00Z', estimatedDeliveryTime: '2026-11-26T14:00:00Z' },
  { shippingMethodId: 301, carrier: 'UPS', method: 'express', servicePoint: false, minDeliveryTime: '2026-11-25T09:00:00Z', maxDeliveryTime: '2026-11-26T18:00:00Z', estimatedDeliveryTime: '2026-11-25T14:00:00Z' },
];
const STATUSES = ['received', 'received', 'in_production', 'in_production', 'shipped', 'shipped', 'shipped', 'delivered', 'delivered', 'cancelled'];
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function fieldsOf(n: number): DraftFields {
  const [country, city, postal] = PLACES[n % PLACES.length];
  const first = FIRST[n % FIRST.length];
  const last = LAST[(n * 7) % LAST.length];
  const models = Array.from({ length: 1 + (n % 3) }, (_, i) => ({ modelId: randomUUID(), quantity: 1 + ((n + i) % 4), name: MODELS[(n + i * 3) % MODELS.length] }));
  const method = METHODS[n % METHODS.length];
  return {
    recipient: { firstName: first, lastName: last, streetAddress: `${(n % 200) + 1} Main Street`, postal, city, country, countryState: '', phoneNumber: '', email: `${first.toLowerCase()}.${n}@example.com`.normalize('NFD').replace(/\p{Diacritic}/gu, '') },
    models,
    shippingMethod: { ...method, price: 395 + ((n * 37) % 2400), quotedAt: iso(Date.now() - (n % 300) * 60_000) },
    orderContent: emptyOrderContent(),
  };
}

/** Writes `count` orders for `account` in `projectId`; a fifth of them from three batch files. */
export async function seedOrders(db: Db, account: string, projectId: string, count: number): Promise<void> {
  const store = await createOrdersStore(sqliteSql(db));
  const tables = await createBatchTables(store.sql);
  const batches = ['shop-week-45.csv', 'shop-week-46.csv', 'shop-week-47.csv'].map((fileName, b) => ({ fileName, rows: [] as { row: number; reference: string; cells: string[] }[], drafts: [] as string[], b }));
  const now = Date.now();
  await store.sql.transaction(async (tx) => {
    for (let n = 0; n < count; n++) {
      const batch = n % 5 === 0 ? batches[n % 3] : null;
      const reference = batch ? `SHOP-${100_000 + n}` : undefined;
      const draft: Draft = await store.create(account, projectId, fieldsOf(n), reference, undefined, tx);
      if (batch && reference) {
        batch.rows.push({ row: batch.rows.length + 2, reference, cells: [reference] });
        batch.drafts.push(draft.id);
      }
      const kind = n % 100;
      if (kind < 6) continue; // drafts
      await store.transition(draft.id, ['draft'], 'queued', { nextAttemptAt: 0, held: kind === 6 }, false, tx);
      if (kind < 9) continue; // waiting in the outbox
      await store.transition(draft.id, ['queued'], 'sending', { attempts: 1 }, false, tx);
      if (kind < 12) {
        await store.transition(draft.id, ['sending'], 'rejected', { problem: { kind: 'rejected', message: 'Model does not exist' } }, false, tx);
        continue;
      }
      if (kind < 14) {
        await store.transition(draft.id, ['sending'], 'needs-attention', { problem: { kind: 'price-changed', message: 'The shipping price has changed since this draft was written.' } }, false, tx);
        continue;
      }
      const placedAt = iso(now - ((n * 7919) % (60 * DAY_MS)));
      await store.transition(draft.id, ['sending'], 'placed', { placed: { orderId: randomUUID(), status: STATUSES[n % STATUSES.length], createdAt: placedAt, shippingPrice: draft.shippingMethod?.price ?? null, currency: 'EUR' } }, false, tx);
    }
  });
  // Each batch in a transaction of its own: one begun on the store while another is open waits for it to end.
  for (const batch of batches) {
    const record = await tables.create({ account, projectId, fileName: batch.fileName, fileHash: randomUUID(), header: ['orderReference'], mapping: {}, shipping: { kind: 'rule', rule: 'cheapest' }, layout: null, constants: {} }, batch.rows);
    await store.sql.run(`UPDATE drafts SET batch_id = ? WHERE id IN (${placeholders(batch.drafts.length)})`, [record.id, ...batch.drafts]);
  }
}
