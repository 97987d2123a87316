// Placed orders' statuses read from the service's list, however it pages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { refreshStatuses } from '../../electron/services/orders/statuses.ts';
import { sqliteSql } from '../../electron/services/storage/sqlite-sql.ts';
import { createOrdersStore, type OrdersStore } from '../../electron/services/orders/store.ts';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';

const PROJECT = '11111111-2222-3333-4444-555555555555';

async function placedDraft(store: OrdersStore, orderId: string) {
  const draft = await store.create('acct', PROJECT, { recipient: emptyRecipient(), models: [], shippingMethod: null, orderContent: emptyOrderContent() });
  await store.transition(draft.id, ['draft'], 'queued');
  await store.transition(draft.id, ['queued'], 'sending');
  return (await store.transition(draft.id, ['sending'], 'placed', { placed: { orderId, status: 'received', createdAt: null, shippingPrice: null, currency: null } }))!;
}

/** A service answering each page from `pages` (1-based), counting the calls. */
function serviceOf(pages: (page: number) => unknown) {
  const calls: number[] = [];
  const client = {
    call: async (_name: string, schema: { parse(value: unknown): unknown }, options: { query: { page: string } }) => {
      calls.push(Number(options.query.page));
      return schema.parse(pages(Number(options.query.page)));
    },
  } as unknown as ApiClient;
  return { client, calls };
}

const order = (orderId: string, status = 'received') => ({ orderId, status });

test('a bare list, paged by less than asked: read on to the page that holds the order', async () => {
  const store = await createOrdersStore(sqliteSql(openDatabase(':memory:')));
  const draft = await placedDraft(store, 'o-3');
  const { client, calls } = serviceOf((page) => [[order('o-1'), order('o-2')], [order('o-3', 'shipped')], []][page - 1] ?? []);
  const changed = await refreshStatuses(store, client, [draft], PROJECT);
  assert.equal(changed[0]?.order?.status, 'shipped');
  assert.deepEqual(calls, [1, 2]);
});

test('a service that ignores the page asked for is read once more, not fifty times', async () => {
  const store = await createOrdersStore(sqliteSql(openDatabase(':memory:')));
  const draft = await placedDraft(store, 'o-9');
  const { client, calls } = serviceOf(() => [order('o-1'), order('o-2')]);
  assert.deepEqual(await refreshStatuses(store, client, [draft], PROJECT), []);
  assert.deepEqual(calls, [1, 2]);
});

test('with a total, reading stops once every order was seen', async () => {
  const store = await createOrdersStore(sqliteSql(openDatabase(':memory:')));
  const draft = await placedDraft(store, 'o-9');
  const { client, calls } = serviceOf((page) => ({ orders: page === 1 ? [order('o-1'), order('o-2')] : [order('o-3')], total: 3 }));
  await refreshStatuses(store, client, [draft], PROJECT);
  assert.deepEqual(calls, [1, 2]);
});
