// The order form's fields kept by the host as they are typed: made a draft once at the next start, and
// forgotten when the form is saved or discarded, so a close or reload loses nothing and doubles nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { createOrders } from '../../electron/services/orders/index.ts';
import type { DraftFields } from '../../electron/contract/schemas/orders.ts';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import { openDatabase, type Db } from '../../electron/services/storage/database.ts';

const PROJECT = '11111111-2222-3333-4444-555555555555';
const ADA = 'https://sandbox ada@example.com';

async function ordersOn(db: Db, account = () => ADA as string | null) {
  return createOrders({ db, client: () => ({}) as ApiClient, account, onDraft: () => undefined, onPlaced: () => undefined });
}

const typed = (firstName: string): DraftFields => ({
  recipient: { ...emptyRecipient(), firstName, lastName: 'Lovelace' },
  models: [],
  shippingMethod: null,
  orderContent: emptyOrderContent(),
});

test('a new order typed and never saved becomes one draft at the next start, once', async () => {
  const db = openDatabase(':memory:');
  (await ordersOn(db)).keepUnsaved(PROJECT, typed('Ad'));
  (await ordersOn(db)).keepUnsaved(PROJECT, typed('Ada'));
  // The app starts again on the same database.
  const next = await ordersOn(db);
  const recovered = await next.recoverUnsaved();
  assert.equal(recovered?.recipient.firstName, 'Ada');
  assert.equal(recovered?.state, 'draft');
  assert.equal(await next.recoverUnsaved(), null, 'given back once');
  assert.equal((await next.list(PROJECT)).length, 1);
});

test('saving or discarding the form leaves nothing to recover', async () => {
  const db = openDatabase(':memory:');
  const orders = await ordersOn(db);
  orders.keepUnsaved(PROJECT, typed('Ada'));
  await orders.save(PROJECT, typed('Ada'));
  assert.equal(await orders.recoverUnsaved(), null);
  orders.keepUnsaved(PROJECT, typed('Grace'));
  orders.forgetUnsaved();
  assert.equal(await orders.recoverUnsaved(), null);
  assert.equal((await orders.list(PROJECT)).length, 1);
});

test('edits to a saved draft go into that draft; edits equal to it make nothing', async () => {
  const db = openDatabase(':memory:');
  const orders = await ordersOn(db);
  const draft = await orders.save(PROJECT, typed('Ada'));
  orders.keepUnsaved(PROJECT, typed('Ada'), draft.id);
  assert.equal(await orders.recoverUnsaved(), null, 'unchanged');
  orders.keepUnsaved(PROJECT, typed('Augusta'), draft.id);
  const recovered = await orders.recoverUnsaved();
  assert.equal(recovered?.id, draft.id);
  assert.equal(recovered?.orderReference, draft.orderReference);
  assert.equal((await orders.get(draft.id)).recipient.firstName, 'Augusta');
  assert.equal((await orders.list(PROJECT)).length, 1);
});

test("one account's unsaved form is not another's", async () => {
  const db = openDatabase(':memory:');
  let who: string | null = ADA;
  const orders = await ordersOn(db, () => who);
  orders.keepUnsaved(PROJECT, typed('Ada'));
  who = 'https://sandbox grace@example.com';
  assert.equal(await orders.recoverUnsaved(), null);
  who = ADA;
  assert.equal((await orders.recoverUnsaved())?.recipient.firstName, 'Ada');
});
