import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sqliteSql } from '../../electron/services/storage/sqlite-sql.ts';
import { createOrdersStore } from '../../electron/services/orders/store.ts';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import type { DraftFields } from '../../electron/contract/schemas/orders.ts';
import { migrate, openDatabase } from '../../electron/services/storage/database.ts';

const fields: DraftFields = { recipient: emptyRecipient(), models: [], shippingMethod: null, orderContent: emptyOrderContent() };

test('a draft gets its reference at creation and keeps it through every transition and a reopen', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'store-')), 'db.sqlite');
  let store = await createOrdersStore(sqliteSql(openDatabase(path)));
  const draft = await store.create('acct', 'p', fields);
  assert.match(draft.orderReference, /^PD-[0-9a-f-]{36}$/);
  await store.transition(draft.id, ['draft'], 'queued', {}, true);
  await store.transition(draft.id, ['queued'], 'sending');
  store = (await createOrdersStore(sqliteSql(openDatabase(path))));
  assert.equal(await store.requeueInterrupted(), 1, 'a send cut short by a crash goes back to the queue');
  assert.equal((await store.get(draft.id))?.orderReference, draft.orderReference);
  assert.equal((await store.get(draft.id))?.state, 'queued');
});

test("a send another running program has under way is not taken for one cut short: only a gone sender's, or a stale one's", async () => {
  let clock = new Date('2026-11-24T10:00:00Z');
  const db = openDatabase(':memory:');
  const store = await createOrdersStore(sqliteSql(db), () => clock);
  const [ours, theirs, gone] = await Promise.all(['ours', 'theirs', 'gone'].map(() => store.create('acct', 'p', fields)));
  const SENDERS = { ours: process.pid, theirs: 4242, gone: 4343 };
  for (const [draft, pid] of [[ours, SENDERS.ours], [theirs, SENDERS.theirs], [gone, SENDERS.gone]] as const) {
    await store.transition(draft.id, ['draft'], 'queued');
    await store.transition(draft.id, ['queued'], 'sending', { sender: pid });
  }
  const alive = (pid: number) => pid === SENDERS.theirs;
  // A send under this process's pid that none of its outboxes has under way was cut short (a reopened store).
  assert.equal(await store.requeueInterrupted(new Set(), alive), 2);
  assert.deepEqual(await Promise.all([ours, theirs, gone].map(async (d) => (await store.get(d.id))?.state)), ['queued', 'sending', 'queued']);
  assert.equal((await store.get(gone.id))?.unanswered, true);
  // Sending for longer than any request may take: the pid is someone else's by now.
  clock = new Date('2026-11-24T10:11:00Z');
  assert.equal(await store.requeueInterrupted(new Set(), alive), 1);
  assert.equal((await store.get(theirs.id))?.state, 'queued');
});

test("the service back makes due what waited for it, not what waits out a 429's Retry-After", async () => {
  const store = await createOrdersStore(sqliteSql(openDatabase(':memory:')));
  const [offline, limited] = await Promise.all(['offline', 'limited'].map(() => store.create('acct', 'p', fields)));
  await store.transition(offline.id, ['draft'], 'queued', { nextAttemptAt: 60_000, waitsForService: true });
  await store.transition(limited.id, ['draft'], 'queued', { nextAttemptAt: 60_000, waitsForService: false });
  assert.equal(await store.makeQueuedDue(), 1);
  assert.equal((await store.nextDue(0, 'acct'))?.id, offline.id);
  assert.equal(await store.nextWakeAt('acct'), 0);
});

test('a transition from the wrong state does nothing, so two senders cannot both take a draft', async () => {
  const store = await createOrdersStore(sqliteSql(openDatabase(':memory:')));
  const draft = await store.create('acct', 'p', fields);
  await store.transition(draft.id, ['draft'], 'queued');
  assert.ok(await store.transition(draft.id, ['queued'], 'sending'));
  assert.equal(await store.transition(draft.id, ['queued'], 'sending'), null);
  assert.equal(await store.remove(draft.id, ['draft']), false);
});

test('only due queued drafts of the signed-in account are handed out, oldest first', async () => {
  const store = await createOrdersStore(sqliteSql(openDatabase(':memory:')));
  const a = await store.create('acct', 'p', fields);
  const b = await store.create('acct', 'p', fields);
  const other = await store.create('someone else', 'p', fields);
  await store.transition(a.id, ['draft'], 'queued', { nextAttemptAt: 5_000, waitsForService: true });
  await store.transition(b.id, ['draft'], 'queued', { nextAttemptAt: 1_000, waitsForService: true });
  await store.transition(other.id, ['draft'], 'queued', { nextAttemptAt: 0 });
  assert.equal(await store.nextDue(500, 'acct'), null);
  assert.equal((await store.nextDue(2_000, 'acct'))?.id, b.id);
  assert.equal(await store.nextWakeAt('acct'), 1_000);
  assert.equal((await store.nextDue(0, 'someone else'))?.id, other.id);
  assert.equal(await store.nextDue(0, 'nobody'), null);
  assert.equal(await store.nextWakeAt('nobody'), null);
  await store.makeQueuedDue();
  assert.equal((await store.nextDue(0, 'acct'))?.id, a.id);
});

test('drafts belong to an account; the address book keeps the latest of each recipient', async () => {
  const store = await createOrdersStore(sqliteSql(openDatabase(':memory:')));
  await store.create('alice', 'p', fields);
  assert.equal((await store.list('bob', 'p')).length, 0);
  assert.equal((await store.list('alice', 'p')).length, 1);
  const ada = { ...emptyRecipient(), firstName: 'Ada', lastName: 'L', city: 'A' };
  await store.recipients.remember('alice', ada);
  await store.recipients.remember('alice', { ...ada, city: 'B' });
  await store.recipients.remember('alice', { ...ada, firstName: 'Bea' });
  assert.equal((await store.recipients.list('alice')).length, 2);
  assert.deepEqual(await store.recipients.list('bob'), []);
});

test('a database from a newer app is refused with a clear message', async () => {
  const db = openDatabase(':memory:');
  await createOrdersStore(sqliteSql(db));
  db.prepare(`UPDATE schema_versions SET version = 99 WHERE domain = 'orders'`).run();
  assert.throws(() => migrate(db, 'orders', []), /newer PrintDesk/);
});
