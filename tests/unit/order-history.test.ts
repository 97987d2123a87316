import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sqliteSql } from '../../electron/services/storage/sqlite-sql.ts';
import { createBatchTables } from '../../electron/services/batch/tables.ts';
import { createOrdersStore } from '../../electron/services/orders/store.ts';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import type { DraftFields, OrderEvent } from '../../electron/contract/schemas/orders.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { describeEvent, timelineSteps } from '../../renderer/lib/order-timeline.ts';

const fields: DraftFields = { recipient: emptyRecipient(), models: [], shippingMethod: null, orderContent: emptyOrderContent() };
const kinds = (events: OrderEvent[]) => events.map((e) => (e.kind === 'attempt' ? `attempt ${e.attempt} ${e.outcome}` : e.kind));

test('each change of an order adds to its history in the same write: drafted, queued, each attempt with its outcome, placed, the statuses', async () => {
  const store = await createOrdersStore(sqliteSql(openDatabase(':memory:')));
  const draft = await store.create('acct', 'p', fields, undefined, 'A copy of PD-1');
  await store.transition(draft.id, ['draft'], 'draft', { fields }); // an edit of a draft adds nothing
  await store.transition(draft.id, ['draft'], 'queued', { nextAttemptAt: 0 });
  await store.transition(draft.id, ['queued'], 'sending', { attempts: 1 });
  await store.transition(draft.id, ['sending'], 'queued', { nextAttemptAt: Date.parse('2026-11-24T10:05:00Z'), note: 'The service did not answer in time' });
  await store.transition(draft.id, ['queued'], 'queued', { held: true });
  assert.equal((await store.get(draft.id))?.held, true);
  assert.equal(await store.nextDue(Date.parse('2030-01-01'), 'acct'), null, 'a held order is not sent');
  await store.transition(draft.id, ['queued'], 'queued', { held: false });
  assert.equal((await store.nextDue(Date.parse('2030-01-01'), 'acct'))?.id, draft.id);
  await store.transition(draft.id, ['queued'], 'sending', { attempts: 2 });
  await store.transition(draft.id, ['sending'], 'placed', { placed: { orderId: 'o-1', status: 'received', createdAt: '2026-11-24T10:06:00Z', shippingPrice: 430, currency: 'EUR' } });
  await store.updatePlaced(draft.id, { orderId: 'o-1', status: 'received', createdAt: null, shippingPrice: 430, currency: 'EUR' }); // nothing new
  await store.updatePlaced(draft.id, { orderId: 'o-1', status: 'shipped', createdAt: null, shippingPrice: 430, currency: 'EUR' }, { reportedAt: '2026-11-25T08:00:00Z' });

  const history = await store.history(draft.id);
  assert.deepEqual(kinds(history), ['drafted', 'queued', 'attempt 1 retry', 'held', 'released', 'attempt 2 placed', 'placed', 'status']);
  assert.equal(history[0].message, 'A copy of PD-1');
  assert.equal(history[2].message, 'The service did not answer in time');
  assert.equal(history[2].nextAttemptAt, '2026-11-24T10:05:00Z');
  assert.equal(history[6].orderId, 'o-1');
  assert.deepEqual([history[7].status, history[7].previous, history[7].at], ['shipped', 'received', '2026-11-25T08:00:00Z']);
});

test('a send cut short by a crash, a refusal and an order held for a new price are each an attempt with its outcome; deleting forgets it', async () => {
  const db = openDatabase(':memory:');
  let store = await createOrdersStore(sqliteSql(db));
  const draft = await store.create('acct', 'p', fields);
  await store.transition(draft.id, ['draft'], 'queued');
  await store.transition(draft.id, ['queued'], 'sending', { attempts: 1, sender: 999_999_999 });
  store = (await createOrdersStore(sqliteSql(db)));
  assert.equal(await store.requeueInterrupted(new Set(), () => false), 1);
  await store.transition(draft.id, ['queued'], 'sending', { attempts: 2 });
  await store.transition(draft.id, ['sending'], 'needs-attention', { problem: { kind: 'price-changed', message: 'The shipping price has changed' } });
  await store.transition(draft.id, ['needs-attention'], 'queued', { note: 'New shipping price accepted: 4.30 → 5.10' });
  await store.transition(draft.id, ['queued'], 'sending', { attempts: 3 });
  await store.transition(draft.id, ['sending'], 'rejected', { problem: { kind: 'rejected', message: 'Model does not exist' } });
  await store.transition(draft.id, ['rejected'], 'draft', { fields });
  const history = await store.history(draft.id);
  assert.deepEqual(kinds(history), ['drafted', 'queued', 'attempt 1 interrupted', 'attempt 2 needs-attention', 'queued', 'attempt 3 rejected', 'edited']);
  assert.equal(history[5].message, 'Model does not exist');
  assert.equal(history[4].message, 'New shipping price accepted: 4.30 → 5.10');

  assert.ok(await store.remove(draft.id, ['draft']));
  assert.deepEqual(await store.history(draft.id), []);
  assert.equal(db.prepare('SELECT COUNT(*) FROM order_events').pluck().get(), 0);
});

test('an order placed before histories were kept shows when it was drafted and placed, from the order itself', async () => {
  const db = openDatabase(':memory:');
  const store = await createOrdersStore(sqliteSql(db));
  const draft = await store.create('acct', 'p', fields);
  await store.transition(draft.id, ['draft'], 'queued');
  await store.transition(draft.id, ['queued'], 'sending', { attempts: 1 });
  await store.transition(draft.id, ['sending'], 'placed', { placed: { orderId: 'o-9', status: 'received', createdAt: '2026-11-24T10:06:00Z', shippingPrice: 430, currency: 'EUR' } });
  db.exec('DELETE FROM order_events');
  const history = await store.history(draft.id);
  assert.deepEqual(kinds(history), ['drafted', 'placed']);
  assert.deepEqual([history[0].at, history[1].at, history[1].orderId], [draft.createdAt, '2026-11-24T10:06:00Z', 'o-9']);
});

test('an order from a batch knows the file and the rows it came from', async () => {
  const db = openDatabase(':memory:');
  const store = await createOrdersStore(sqliteSql(db));
  const tables = await createBatchTables(store.sql);
  const batch = await tables.create(
    { account: 'acct', projectId: 'p', fileName: 'shop.csv', fileHash: 'h', header: ['ref'], mapping: {}, shipping: { kind: 'rule', rule: 'cheapest' }, layout: null, constants: {} },
    [{ row: 2, reference: 'SHOP-1', cells: ['SHOP-1'] }, { row: 3, reference: 'SHOP-1', cells: ['SHOP-1'] }, { row: 4, reference: 'SHOP-2', cells: ['SHOP-2'] }],
  );
  const draft = await store.create('acct', 'p', fields, 'SHOP-1');
  db.prepare('UPDATE drafts SET batch_id = ? WHERE id = ?').run(batch.id, draft.id);
  const single = await store.create('acct', 'p', fields);
  assert.deepEqual((await store.get(draft.id))?.batch, { batchId: batch.id, fileName: 'shop.csv', importedAt: batch.createdAt, rows: [2, 3] });
  assert.equal((await store.get(single.id))?.batch, null);
  assert.deepEqual((await store.list('acct', 'p')).map((d) => d.batch?.rows ?? null).sort(), [[2, 3], null]);
});

test('the timeline tells each step in words, and where the order stands now at the end', async () => {
  const store = await createOrdersStore(sqliteSql(openDatabase(':memory:')));
  const draft = await store.create('acct', 'p', fields);
  await store.transition(draft.id, ['draft'], 'queued');
  await store.transition(draft.id, ['queued'], 'sending', { attempts: 1 });
  const waiting = await store.transition(draft.id, ['sending'], 'queued', { nextAttemptAt: Date.now() + 3_600_000, note: 'Too many requests' });
  assert.ok(waiting);
  const steps = timelineSteps(await store.history(draft.id), waiting, true);
  assert.deepEqual(steps.map((s) => s.title), ['Drafted', 'Queued in the outbox', 'Send attempt 1: not sent, to be tried again', steps[3].title]);
  assert.match(steps[3].title, /^Waiting to be sent (in under a minute|at|\w+ \d+ at)/);
  assert.match(steps[2].detail, /^Too many requests\. Next try /);
  assert.equal(timelineSteps(await store.history(draft.id), waiting, false).at(-1)?.title, 'Waiting for the service');
  const status = describeEvent({ at: '2026-11-25T08:00:00Z', kind: 'status', status: 'in_production', previous: 'received' }, waiting);
  assert.deepEqual([status.title, status.detail], ['Service status: In production', 'Was received']);
});
