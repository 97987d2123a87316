// What the Orders table does to many orders at once, and what each order's page tells of it, against a real
// sandbox: cancelling where the service still cancels, holding and releasing queued orders, sending rejected
// ones again, and the history each step leaves.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { createOrders, type Orders } from '../../electron/services/orders/index.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';
import type { Draft, DraftFields } from '../../electron/contract/schemas/orders.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { sandboxWithModel } from './orders-sandbox.ts';

let sandbox: TestSandbox;
let projectId: string;
let modelId: string;
let client: ApiClient;

before(async () => {
  ({ sandbox, projectId, modelId, client } = await sandboxWithModel(2_000));
});
after(() => sandbox.dispose());

const newOrders = (): Promise<Orders> =>
  createOrders({ db: openDatabase(':memory:'), client: () => client, account: () => `${sandbox.baseUrl} ${DEMO_EMAIL}`, onDraft: () => undefined, onPlaced: () => undefined });

async function fields(orders: Orders, models = [{ modelId, quantity: 1 }]): Promise<DraftFields> {
  const quote = await orders.quote({ country: 'NL', models: [{ modelId, quantity: 1 }] });
  return {
    recipient: { firstName: 'Ada', lastName: 'Lovelace', streetAddress: 'Keizersgracht 1', postal: '1015 CJ', city: 'Amsterdam', country: 'NL', countryState: '', phoneNumber: '', email: 'ada@example.com' },
    models,
    shippingMethod: quote.methods[0],
    orderContent: { ConfigIds: [], ExternalConfigIds: [], StockIds: [] },
  };
}

async function placed(orders: Orders, count: number): Promise<Draft[]> {
  const base = await fields(orders);
  const drafts = await Promise.all(Array.from({ length: count }, () => orders.save(projectId, base)));
  for (const d of drafts) await orders.place(d.id);
  await orders.outbox.drained();
  return Promise.all(drafts.map((d) => orders.get(d.id)));
}

test('a quote says when it was quoted, and a draft keeps that with the method chosen from it', async () => {
  const orders = await newOrders();
  const before = Date.now();
  const quote = await orders.quote({ country: 'NL', models: [{ modelId, quantity: 1 }] });
  assert.ok(quote.methods.length > 0);
  for (const method of quote.methods) assert.equal(method.quotedAt, quote.quotedAt);
  assert.ok(Date.parse(quote.quotedAt) >= before - 1000);
  const draft = await orders.save(projectId, await fields(orders));
  assert.ok(draft.shippingMethod?.quotedAt, 'kept with the draft, for the outbox to say how old its price is');
});

test('cancelling many: the orders the service still cancels are cancelled, one shipped is named with why, and each history says so', async () => {
  const orders = await newOrders();
  const [a, b, shipped] = await placed(orders, 3);
  assert.ok(shipped.order?.orderId);
  await sandbox.operator.advanceOrder(shipped.order.orderId, 'in_production');
  await sandbox.operator.advanceOrder(shipped.order.orderId, 'shipped');
  await orders.refresh(projectId);

  const result = await orders.bulk.cancel([a.id, b.id, shipped.id]);
  assert.deepEqual(result.done.map((d) => [d.id, d.order?.status]), [[a.id, 'cancelled'], [b.id, 'cancelled']]);
  assert.deepEqual(result.failed.map((f) => f.id), [shipped.id]);
  assert.match(result.failed[0].message, /shipped: the service cancels orders only until they ship/);
  const atService = new Map((await sandbox.operator.listOrders({ projectId })).map((o) => [o.orderReference, o.status]));
  assert.equal(atService.get(a.orderReference), 'cancelled');
  assert.equal(atService.get(shipped.orderReference), 'shipped');

  const history = await orders.history(a.id);
  assert.deepEqual(history.map((e) => e.kind), ['drafted', 'queued', 'attempt', 'placed', 'status']);
  assert.deepEqual([history[4].status, history[4].message], ['cancelled', 'Cancelled from PrintDesk']);
  assert.deepEqual((await orders.history(shipped.id)).filter((e) => e.kind === 'status').map((e) => e.status), ['shipped']);
});

test('a held order stays in the outbox while others go, and goes once released', async () => {
  const orders = await newOrders();
  const base = await fields(orders);
  const [kept, sent] = [await orders.save(projectId, base), await orders.save(projectId, base)];
  orders.outbox.pause();
  await orders.place(kept.id);
  await orders.place(sent.id);
  const held = await orders.bulk.hold([kept.id, sent.id, kept.id]);
  assert.equal(held.done.length, 2);
  await orders.bulk.release([sent.id]);
  orders.outbox.resume();
  await orders.outbox.drained();
  assert.equal((await orders.get(sent.id)).state, 'placed');
  assert.deepEqual([(await orders.get(kept.id)).state, (await orders.get(kept.id)).held], ['queued', true]);
  assert.equal((await orders.bulk.hold([sent.id])).failed[0]?.id, sent.id, 'a placed order cannot be held');

  await orders.bulk.release([kept.id]);
  await orders.outbox.drained();
  assert.equal((await orders.get(kept.id)).state, 'placed');
  assert.deepEqual((await orders.history(kept.id)).map((e) => e.kind), ['drafted', 'queued', 'held', 'released', 'attempt', 'placed']);
});

test('each send attempt is in the history with its outcome: a 5xx tried again, then placed; a rejected order sent again', async () => {
  const orders = await newOrders();
  const draft = await orders.save(projectId, await fields(orders));
  sandbox.faults.set({ kind: 'status-5xx', path: '/Order/CreateOrder', count: 1 });
  try {
    await orders.place(draft.id);
    while ((await orders.get(draft.id)).state !== 'queued' || (await orders.get(draft.id)).attempts < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await orders.sendNow(draft.id);
    await orders.outbox.drained();
  } finally {
    sandbox.faults.clear();
  }
  const attempts = (await orders.history(draft.id)).filter((e) => e.kind === 'attempt');
  assert.deepEqual(attempts.map((e) => [e.attempt, e.outcome]), [[1, 'retry'], [2, 'placed']]);
  assert.ok(attempts[0].message && attempts[0].nextAttemptAt, 'why it was not sent, and when it went again');

  const unknown = await orders.save(projectId, await fields(orders, [{ modelId: '0f8fad5b-d9cb-469f-a165-70867728950e', quantity: 1 }]));
  await orders.place(unknown.id);
  await orders.outbox.drained();
  assert.equal((await orders.get(unknown.id)).state, 'rejected');
  const retried = await orders.bulk.retry([unknown.id]);
  assert.equal(retried.failed.length, 0);
  await orders.outbox.drained();
  assert.deepEqual((await orders.history(unknown.id)).filter((e) => e.kind === 'attempt').map((e) => e.outcome), ['rejected', 'rejected']);

  const removed = await orders.bulk.remove([unknown.id, draft.id]);
  assert.deepEqual([removed.done.map((d) => d.id), removed.failed.map((f) => f.id)], [[unknown.id], [draft.id]]);
});

test("an order's page asks the service for its status: a change is recorded at the service's time", async () => {
  const orders = await newOrders();
  const [draft] = await placed(orders, 1);
  assert.deepEqual(await orders.check(draft.id), await orders.get(draft.id), 'nothing new: the order as it was');
  assert.ok(draft.order?.orderId);
  await sandbox.operator.advanceOrder(draft.order.orderId, 'in_production');
  assert.equal((await orders.check(draft.id)).order?.status, 'in_production');
  const status = (await orders.history(draft.id)).at(-1);
  assert.deepEqual([status?.kind, status?.status, status?.previous], ['status', 'in_production', 'received']);
});
