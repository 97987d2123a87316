// A print shop's day of orders, made through the app's own host against its sandbox: orders placed one by
// one through the outbox, some moved on by the operator (in production, shipped, cancelled), a batch
// imported from a CSV and sent, and a few drafts left unsent.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Draft, DraftFields, Quote, ShippingMethod } from '../../electron/contract/schemas/orders.ts';
import { emptyOrderContent } from '../../common/orders/empty.ts';
import type { AppUnderTest } from './harness.ts';

const PEOPLE = [
  ['Ada', 'Lovelace'], ['Grace', 'Hopper'], ['Alan', 'Turing'], ['Katherine', 'Johnson'], ['Margaret', 'Hamilton'], ['Linus', 'Torvalds'],
  ['Zoë', 'Martins'], ['Jean', 'Bartik'], ['Edsger', 'Dijkstra'], ['Barbara', 'Liskov'], ['Hedy', 'Lamarr'], ['Tim', 'Berners-Lee'],
];
const PLACES = [
  { country: 'NL', city: 'Amsterdam', postal: '1012 LG', street: 'Damrak 1' },
  { country: 'DE', city: 'Berlin', postal: '10117', street: 'Unter den Linden 5' },
  { country: 'FR', city: 'Lyon', postal: '69002', street: 'Rue de la République 12' },
  { country: 'BE', city: 'Gent', postal: '9000', street: 'Korenmarkt 3' },
  { country: 'PT', city: 'Porto', postal: '4000-322', street: 'Rua das Flores 20' },
];

/** The host's answer to a channel, which must have succeeded. */
export async function invoke<T>(app: AppUnderTest, channel: string, input: unknown): Promise<T> {
  const result = await app.booted.host.invoke(channel, input);
  assert.ok(result.ok, `${channel}: ${JSON.stringify(result)}`);
  return result.value as T;
}

export function orderFields(n: number, modelId: string, method: ShippingMethod | null, quantity = 1): DraftFields {
  const [firstName, lastName] = PEOPLE[n % PEOPLE.length];
  const place = PLACES[n % PLACES.length];
  return {
    recipient: { firstName, lastName: `${lastName}`, streetAddress: place.street, postal: place.postal, city: place.city, country: place.country, countryState: '', phoneNumber: '', email: `${firstName.toLowerCase().normalize('NFD').replace(/\p{Diacritic}/gu, '')}.${n}@example.com` },
    models: [{ modelId, quantity, name: 'Moon-binary' }],
    shippingMethod: method,
    orderContent: emptyOrderContent(),
  };
}

/** The cheapest method to each place, as the service quotes it now. */
export async function quotesByCountry(app: AppUnderTest, modelId: string): Promise<Map<string, ShippingMethod>> {
  const methods = new Map<string, ShippingMethod>();
  for (const { country } of PLACES) {
    const quote = await invoke<Quote>(app, 'quotes:get', { country, models: [{ modelId, quantity: 1 }] });
    methods.set(country, quote.methods[0]);
  }
  return methods;
}

/** Waits until the outbox has nothing queued or being sent for this project. */
export async function outboxSettled(app: AppUnderTest, projectId: string, timeoutMs = 120_000): Promise<Draft[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const drafts = await invoke<Draft[]>(app, 'drafts:list', { projectId });
    if (!drafts.some((d) => (d.state === 'queued' && !d.held) || d.state === 'sending')) return drafts;
    assert.ok(Date.now() < deadline, 'the outbox did not settle');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `count` orders placed one at a time through the outbox, then some moved on by the service's operator. */
export async function placeOrders(app: AppUnderTest, projectId: string, modelId: string, count: number): Promise<Draft[]> {
  const methods = await quotesByCountry(app, modelId);
  for (let n = 0; n < count; n++) {
    const fields = orderFields(n, modelId, methods.get(PLACES[n % PLACES.length].country) ?? null, 1 + (n % 3));
    const draft = await invoke<Draft>(app, 'drafts:save', { projectId, fields });
    await invoke(app, 'outbox:place', { id: draft.id });
  }
  const drafts = await outboxSettled(app, projectId);
  const placed = drafts.filter((d) => d.state === 'placed');
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  for (const [index, draft] of placed.entries()) {
    const status = index % 7 === 0 ? 'shipped' : index % 5 === 0 ? 'in_production' : index % 11 === 0 ? 'cancelled' : null;
    if (!status || !draft.order?.orderId) continue;
    if (status === 'shipped') await sandbox.operator.advanceOrder(draft.order.orderId, 'in_production');
    await sandbox.operator.advanceOrder(draft.order.orderId, status);
  }
  await invoke(app, 'orders:refresh', { projectId });
  return placed;
}

/** A CSV of `rows` orders imported as a batch and sent; resolves once its orders are placed. */
export async function sendBatch(app: AppUnderTest, projectId: string, modelId: string, rows: number, fileName = 'shop-orders.csv'): Promise<string> {
  const lines = Array.from({ length: rows }, (_, i) => {
    const fields = orderFields(i + 1000, modelId, null);
    const r = fields.recipient;
    return [`SHOP-${1001 + i}`, r.firstName, r.lastName, r.streetAddress, r.postal, r.city, r.country, r.email, modelId, String(1 + (i % 2)), 'cheapest'].join(';');
  });
  const file = join(await mkdtemp(join(tmpdir(), 'orders-batch-')), fileName);
  await writeFile(file, ['orderReference;firstName;lastName;streetAddress;postal;city;country;email;modelId;quantity;shippingMethod', ...lines].join('\r\n'));
  app.booted.host.grantPaths([file]);
  const batch = await invoke<{ id: string }>(app, 'batch:import', { projectId, path: file });
  await invoke(app, 'batch:send', { batchId: batch.id });
  await outboxSettled(app, projectId);
  return batch.id;
}

/**
 * Orders that did not go through: one rejected (a model the service does not know), one whose price rose
 * since it was quoted, and two waiting in the outbox (the service asked to wait an hour), one of them held.
 */
export async function troubledOrders(app: AppUnderTest, projectId: string, modelId: string) {
  const methods = await quotesByCountry(app, modelId);
  const save = (fields: DraftFields) => invoke<Draft>(app, 'drafts:save', { projectId, fields });
  const place = async (draft: Draft) => invoke<Draft>(app, 'outbox:place', { id: draft.id });

  const nl = methods.get('NL') ?? null;
  const unknownModel = { ...orderFields(700, '0f8fad5b-d9cb-469f-a165-70867728950e', nl), models: [{ modelId: '0f8fad5b-d9cb-469f-a165-70867728950e', quantity: 1 }] };
  const rejected = await save(unknownModel);
  await place(rejected);
  const cheaper = nl ? { ...nl, price: nl.price - 100 } : null;
  const changed = await save(orderFields(701, modelId, cheaper));
  await place(changed);
  await outboxSettled(app, projectId);

  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  sandbox.faults.set({ kind: 'rate-limit', path: '/Order/CreateOrder', count: 2, retryAfterSeconds: 3600 });
  const waiting = await save(orderFields(702, modelId, methods.get('DE') ?? null));
  const held = await save(orderFields(703, modelId, methods.get('FR') ?? null));
  await place(waiting);
  await place(held);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const drafts = await invoke<Draft[]>(app, 'drafts:list', { projectId });
    const waits = drafts.filter((d) => (d.id === waiting.id || d.id === held.id) && d.state === 'queued' && d.nextAttemptAt);
    if (waits.length === 2) break;
    assert.ok(Date.now() < deadline, 'the service did not ask both to wait');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  sandbox.faults.clear();
  await invoke(app, 'outbox:hold', { ids: [held.id] });
  return { rejected, changed, waiting, held };
}
