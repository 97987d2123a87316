// How the outbox reads CreateOrder's answers, whose shape the spec does not show: an order found under a
// reused reference is someone else's unless it matches; a success it cannot parse is still a success; and
// an attempt whose answer was lost keeps the draft locked until the service answers it.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { createApiClient, type ApiClient } from '../../electron/services/api/client.ts';
import { ShippingMethods } from '../../electron/services/api/schemas.ts';
import { z } from 'zod';
import { createOrders } from '../../electron/services/orders/index.ts';
import { payload } from '../../electron/services/orders/create-order.ts';
import { startTestSandbox } from '../../sandbox/testing.ts';
import type { Draft, DraftFields } from '../../electron/contract/schemas/orders.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { signedInClient } from '../signed-in.ts';

const MODEL = '11111111-1111-1111-1111-111111111111';
const PROJECT = '22222222-2222-2222-2222-222222222222';
const METHOD = { shippingMethodId: 101, carrier: 'DHL', method: 'home', servicePoint: false, price: 500, minDeliveryTime: null, maxDeliveryTime: null, estimatedDeliveryTime: null };

const fieldsFor = (firstName: string, modelId = MODEL, method = METHOD): DraftFields => ({
  recipient: { firstName, lastName: 'Lovelace', streetAddress: 'Keizersgracht 1', postal: '1015 CJ', city: 'Amsterdam', country: 'NL', countryState: '', phoneNumber: '', email: 'ada@example.com' },
  models: [{ modelId, quantity: 2 }],
  shippingMethod: method,
  orderContent: { ConfigIds: [], ExternalConfigIds: [], StockIds: [] },
});

const ordersWith = (client: ApiClient) => createOrders({ db: openDatabase(':memory:'), client: () => client, account: () => 'acct', onDraft: () => undefined, onPlaced: () => undefined });

/** A service of our own making, for answers the sandbox never gives: `answer` gets each request's path. */
async function fakeService(
  answer: (path: string, reply: (status: number, body: unknown, delayMs?: number) => void) => void,
  timeoutMs = 2_000,
  quoteDelayMs: (n: number) => number = () => 0,
  quotedPrice: (n: number) => number = () => METHOD.price,
) {
  let quotes = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume().on('end', () => {
      const reply = (status: number, body: unknown, delayMs = 0) =>
        setTimeout(() => {
          if (response.destroyed) return;
          response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        }, delayMs);
      const path = new URL(request.url ?? '/', 'http://x').pathname.replace('/v2/', '');
      if (path === 'Shipping/GetShippingMethods') return (quotes++, reply(200, { success: true, data: { methods: [{ ...METHOD, price: quotedPrice(quotes) }] } }, quoteDelayMs(quotes)));
      answer(path, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  const client = createApiClient({ baseUrl, timeoutMs, sleep: async () => undefined, tokens: { accessToken: async () => 't', renewAfterRejection: async () => 't' } });
  return { client, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 500 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(await check(), 'timed out');
};

test("a reference the service holds for another order is not taken as this one's: the draft says so and stays unplaced", async (t) => {
  const sandbox = await startTestSandbox();
  t.after(() => sandbox.dispose());
  const projectId = (await sandbox.operator.listProjects())[0].projectId;
  const modelId = (await sandbox.operator.addModel(projectId, join(corpus, 'stl', 'Cube-binary.stl'))).modelId;
  const { client } = await signedInClient(sandbox);
  const method = { ...(await client.call('getShippingMethods', ShippingMethods, { body: { country: 'NL', models: [{ modelId, quantity: 2 }] } })).methods[0], minDeliveryTime: null, maxDeliveryTime: null, estimatedDeliveryTime: null };
  // Last month's order SHOP-1001, for Bob, placed by another tool; today a file whose numbering restarted
  // gives Ada the same reference.
  const bob = { ...fieldsFor('Bob', modelId, method), models: [{ modelId, quantity: 1 }] };
  await client.call('createOrder', z.unknown(), { body: payload({ ...bob, id: 'x', orderReference: 'SHOP-1001', projectId } as Draft) });
  const orders = await ordersWith(client);
  const ada = await orders.store.create('acct', projectId, fieldsFor('Ada', modelId, method), 'SHOP-1001');
  await orders.place(ada.id);
  await orders.outbox.drained();
  const after = await orders.get(ada.id);
  assert.equal(after.state, 'needs-attention');
  assert.equal(after.order, null);
  assert.match(after.problem?.message ?? '', /another order under the reference SHOP-1001 .* different recipient, models/);
  assert.equal(after.unanswered, false, 'the user may duplicate or delete it');
  assert.equal((await sandbox.operator.listOrders({ projectId })).length, 1);
  // Bob's own order, sent again from a draft that matches it, is recognised as its own.
  const again = await ordersWith(client);
  const bobAgain = await again.store.create('acct', projectId, bob, 'SHOP-1001');
  await again.place(bobAgain.id);
  await again.outbox.drained();
  assert.equal((await again.get(bobAgain.id)).state, 'placed');
  assert.equal((await sandbox.operator.listOrders({ projectId })).length, 1);
  await again.stop();
  await orders.stop();
});

for (const data of [{ orderId: 98765 }, null, true]) {
  test(`a CreateOrder success answered as ${JSON.stringify(data)} is placed once, not sent again`, async (t) => {
    let creates = 0;
    const service = await fakeService((path, reply) => {
      if (path === 'Order/CreateOrder') return (creates++, reply(200, { success: true, data }));
      reply(404, { success: false, error: { type: 'NOT_FOUND', message: 'Not found' } });
    });
    t.after(() => service.close());
    const orders = await ordersWith(service.client);
    const draft = await orders.save(PROJECT, fieldsFor('Ada'));
    await orders.place(draft.id);
    await orders.outbox.drained();
    const placed = await orders.get(draft.id);
    assert.equal(placed.state, 'placed');
    assert.equal(placed.order?.orderId, '', 'no id the client could read: the reference stands for it');
    assert.equal(creates, 1);
    await orders.stop();
  });
}

test('an attempt whose answer was lost keeps the draft locked and goes again under its reference, even with no way to look it up', async (t) => {
  let creates = 0;
  const service = await fakeService((path, reply) => {
    // Placed, but answered too late; and no GetOrder at this service.
    if (path === 'Order/CreateOrder') return (creates++, reply(200, { success: true, data: { orderId: 'ord-1' } }, creates === 1 ? 1_000 : 0));
    reply(404, { success: false, error: { type: 'NOT_FOUND', message: 'No such endpoint' } });
  }, 300);
  t.after(() => service.close());
  const orders = await ordersWith(service.client);
  const draft = await orders.save(PROJECT, fieldsFor('Ada'));
  await orders.place(draft.id);
  await until(async () => (await orders.get(draft.id)).unanswered);
  await assert.rejects(orders.remove(draft.id), /may have placed it/);
  await assert.rejects(orders.save(PROJECT, fieldsFor('Augusta'), draft.id), /may have placed it/);
  orders.outbox.kick();
  await until(async () => (await orders.get(draft.id)).state === 'placed');
  assert.equal(creates, 2, 'sent once more, and only after the first was recorded as unanswered');
  assert.equal((await orders.get(draft.id)).order?.orderId, 'ord-1');
  await orders.stop();
});

test('a second host starting on the same database (the app and `printdesk batch`) does not send again what the first is sending', async (t) => {
  let creates = 0;
  const service = await fakeService((path, reply) => {
    if (path === 'Order/CreateOrder') return (creates++, reply(200, { success: true, data: { orderId: `ord-${creates}` } }, 500));
    reply(404, { success: false, error: { type: 'NOT_FOUND', message: 'Not found' } });
  });
  t.after(() => service.close());
  const file = join(mkdtempSync(join(tmpdir(), 'pd-two-')), 'printdesk.db');
  t.after(() => rmSync(dirname(file), { recursive: true, force: true }));
  const hostOn = () => createOrders({ db: openDatabase(file), client: () => service.client, account: () => 'acct', onDraft: () => undefined, onPlaced: () => undefined });
  const first = await hostOn();
  await first.start();
  const draft = await first.save(PROJECT, fieldsFor('Ada'));
  await first.place(draft.id);
  await until(async () => (await first.get(draft.id)).state === 'sending');
  const second = await hostOn();
  await second.start();
  await first.outbox.drained();
  await second.outbox.drained();
  assert.equal((await first.get(draft.id)).state, 'placed');
  assert.equal(creates, 1);
  await Promise.all([first.stop(), second.stop()]);
});

/** A draft whose first CreateOrder is answered too late (the service placed it): it is then "unanswered". */
async function lostFirstAnswer(answer: (path: string, reply: (status: number, body: unknown, delayMs?: number) => void, creates: number) => void) {
  let creates = 0;
  const service = await fakeService((path, reply) => {
    if (path === 'Order/CreateOrder' && ++creates === 1) return reply(200, { success: true, data: { orderId: 'ord-1' } }, 1_000);
    answer(path, reply, creates);
  }, 300);
  const orders = await ordersWith(service.client);
  const draft = await orders.save(PROJECT, fieldsFor('Ada'));
  await orders.place(draft.id);
  await until(async () => (await orders.get(draft.id)).unanswered);
  orders.outbox.kick();
  return { orders, draft, service, creates: () => creates };
}

test('a quote check that times out is no lost CreateOrder: the draft is not locked, and it goes once the quote answers', async (t) => {
  // Slower than the client waits, through its own retries of the quote.
  let creates = 0;
  const service = await fakeService((path, reply) => {
    if (path === 'Order/CreateOrder') return (creates++, reply(200, { success: true, data: { orderId: 'ord-1' } }));
    reply(404, { success: false, error: { type: 'NOT_FOUND', message: 'Not found' } });
  }, 300, (n) => (n <= 4 ? 1_000 : 0));
  t.after(() => service.close());
  const orders = await ordersWith(service.client);
  const draft = await orders.save(PROJECT, fieldsFor('Ada'));
  await orders.place(draft.id);
  await until(async () => (await orders.get(draft.id)).state === 'queued' && (await orders.get(draft.id)).attempts === 1);
  assert.equal((await orders.get(draft.id)).unanswered, false, 'only CreateOrder going out may have placed it');
  await orders.unqueue(draft.id);
  await orders.place(draft.id);
  await until(async () => (await orders.get(draft.id)).state === 'placed');
  assert.equal(creates, 1);
  await orders.stop();
});

test('a lost answer, then "reference taken" from a service that cannot look it up: placed, known by its reference', async (t) => {
  const { orders, draft, service, creates } = await lostFirstAnswer((path, reply) => {
    if (path === 'Order/CreateOrder') return reply(409, { success: false, error: { type: 'INCORRECT_PARAMETERS', message: 'orderReference already exists' } });
    reply(404, { success: false, error: { type: 'NOT_FOUND', message: 'No such endpoint' } });
  });
  t.after(() => service.close());
  await until(async () => (await orders.get(draft.id)).state === 'placed');
  assert.equal((await orders.get(draft.id)).order?.orderId, '');
  assert.equal(creates(), 2);
  await orders.stop();
});

test('a lost answer, then a look-up refused for access: the draft stays locked, as the order may exist', async (t) => {
  const { orders, draft, service, creates } = await lostFirstAnswer((path, reply) => reply(403, { success: false, error: { type: 'NO_PERMISSION', message: 'No access to the project' } }));
  t.after(() => service.close());
  await until(async () => (await orders.get(draft.id)).state === 'needs-attention');
  assert.equal((await orders.get(draft.id)).unanswered, true);
  await assert.rejects(orders.remove(draft.id), /may have placed it/);
  assert.equal(creates(), 1, 'not sent again while the service may hold it');
  await orders.stop();
});

test("an order found under PrintDesk's own reference is the draft's, though the service tidied its fields", async (t) => {
  const { orders, draft, service } = await lostFirstAnswer((path, reply) => {
    if (path === 'Order/GetOrder') return reply(200, { success: true, data: { orderId: 'ord-1', postal: '1015CJ', firstName: 'ADA', models: [{ modelId: MODEL, quantity: 2 }] } });
    reply(500, { success: false, error: { type: 'INTERNAL_ERROR', message: 'unexpected' } });
  });
  t.after(() => service.close());
  await until(async () => (await orders.get(draft.id)).state === 'placed');
  assert.equal((await orders.get(draft.id)).order?.orderId, 'ord-1');
  await orders.stop();
});

test('a lost answer, then a price raised before it goes again: held, still locked, until the user accepts the new price', async (t) => {
  let creates = 0;
  const service = await fakeService(
    (path, reply) => {
      if (path === 'Order/CreateOrder') return (creates++, reply(200, { success: true, data: { orderId: 'ord-1' } }, creates === 1 ? 1_000 : 0));
      reply(404, { success: false, error: { type: 'NOT_FOUND', message: 'No such endpoint' } });
    },
    300,
    () => 0,
    (n) => (n === 1 ? METHOD.price : 650),
  );
  t.after(() => service.close());
  const orders = await ordersWith(service.client);
  const draft = await orders.save(PROJECT, fieldsFor('Ada'));
  await orders.place(draft.id);
  await until(async () => (await orders.get(draft.id)).unanswered);
  orders.outbox.kick();
  await until(async () => (await orders.get(draft.id)).state === 'needs-attention');
  const held = await orders.get(draft.id);
  assert.equal(held.problem?.kind, 'price-changed');
  assert.equal(held.unanswered, true, 'the lost attempt may still have placed it');
  assert.equal(creates, 1, 'not sent at a price the user has not seen');
  await orders.acceptChanges(draft.id);
  await until(async () => (await orders.get(draft.id)).state === 'placed');
  assert.equal(creates, 2);
  assert.equal((await orders.get(draft.id)).shippingMethod?.price, 650);
  await orders.stop();
});
