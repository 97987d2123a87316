// The order form's keeper against the host's own store: what the next start makes a draft is what the
// form last held unsaved, and nothing once the form was left as saved or discarded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { createOrders, type Orders } from '../../electron/services/orders/index.ts';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import type { DraftFields } from '../../electron/contract/schemas/orders.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';

const PROJECT = '11111111-2222-3333-4444-555555555555';
const typed = (firstName: string): DraftFields => ({ recipient: { ...emptyRecipient(), firstName }, models: [], shippingMethod: null, orderContent: emptyOrderContent() });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The bridge reads window.printdesk once, when first imported: its calls go to whichever host is current.
let host: Orders;
const ok = (value: unknown) => Promise.resolve({ ok: true, value });
const drafts = {
  keepUnsaved: ({ projectId, id, fields }: { projectId: string; id?: string; fields: DraftFields }) => ok(host.keepUnsaved(projectId, fields, id)),
  forgetUnsaved: () => ok(host.forgetUnsaved()),
};
Object.assign(globalThis, { window: { printdesk: { drafts } }, addEventListener: () => undefined, removeEventListener: () => undefined });

/** A keeper whose bridge calls go straight to a host's orders on `db`, as IPC would. */
async function keeperOn(db: ReturnType<typeof openDatabase>) {
  host = await createOrders({ db, client: () => ({}) as ApiClient, account: () => 'acct', onDraft: () => undefined, onPlaced: () => undefined });
  const { UnsavedFormKeeper } = await import('../../renderer/lib/unsaved-form-keeper.ts');
  return { host, keeper: new UnsavedFormKeeper() };
}

const nextStart = async (db: ReturnType<typeof openDatabase>) =>
  (await createOrders({ db, client: () => ({}) as ApiClient, account: () => 'acct', onDraft: () => undefined, onPlaced: () => undefined })).recoverUnsaved();

test('a slip kept during a pause, then typed back to the saved text and left at once: nothing comes back', async () => {
  const db = openDatabase(':memory:');
  const { host, keeper } = await keeperOn(db);
  const saved = await host.save(PROJECT, typed('Ada'));
  keeper.update(PROJECT, saved.id, typed('Adx'), true);
  await pause(500);
  keeper.update(PROJECT, saved.id, typed('Ada'), false);
  keeper.close(true);
  await pause(20);
  assert.equal((await nextStart(db)), null);
});

test('typed and left by closing the window (no teardown): the next start has it', async () => {
  const db = openDatabase(':memory:');
  const { keeper } = await keeperOn(db);
  keeper.update(PROJECT, null, typed('Mary'), true);
  keeper.flush();
  await pause(20);
  assert.equal((await nextStart(db))?.recipient.firstName, 'Mary');
});

test('discarded before the pause ended: nothing comes back', async () => {
  const db = openDatabase(':memory:');
  const { keeper } = await keeperOn(db);
  keeper.update(PROJECT, null, typed('Grace'), true);
  keeper.close(true);
  await pause(20);
  assert.equal((await nextStart(db)), null);
});
