import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOrdersStore } from '../../electron/services/orders/store.ts';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import type { DraftFields } from '../../electron/contract/schemas/orders.ts';
import { DRAFTS_CHANNEL } from '../../electron/services/orders/live.ts';
import { forEachEngine, postgresEngine } from '../sql-engines.ts';

const fields: DraftFields = { recipient: emptyRecipient(), models: [], shippingMethod: null, orderContent: emptyOrderContent() };

forEachEngine((engine) => {
  test('a draft gets its reference at creation and keeps it through every transition and a reopen', async () => {
    const sql = await engine.open();
    let store = await createOrdersStore(sql);
    const draft = await store.create('acct', 'p', fields);
    assert.match(draft.orderReference, /^PD-[0-9a-f-]{36}$/);
    await store.transition(draft.id, ['draft'], 'queued', {}, true);
    await store.transition(draft.id, ['queued'], 'sending');
    store = await createOrdersStore(await engine.openAgain(sql));
    assert.equal(await store.requeueInterrupted(), 1, 'a send cut short by a crash goes back to the queue');
    assert.equal((await store.get(draft.id))?.orderReference, draft.orderReference);
    assert.equal((await store.get(draft.id))?.state, 'queued');
  });

  test("a send another running program has under way is not taken for one cut short: only a gone sender's, or a stale one's", async () => {
    let clock = new Date('2026-11-24T10:00:00Z');
    const store = await createOrdersStore(await engine.open(), () => clock);
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
    const store = await createOrdersStore(await engine.open());
    const [offline, limited] = await Promise.all(['offline', 'limited'].map(() => store.create('acct', 'p', fields)));
    await store.transition(offline.id, ['draft'], 'queued', { nextAttemptAt: 60_000, waitsForService: true });
    await store.transition(limited.id, ['draft'], 'queued', { nextAttemptAt: 60_000, waitsForService: false });
    assert.equal(await store.makeQueuedDue(), 1);
    assert.equal((await store.nextDue(0, 'acct'))?.id, offline.id);
    assert.equal(await store.nextWakeAt('acct'), 0);
  });

  test('a transition from the wrong state does nothing, so two senders cannot both take a draft', async () => {
    const store = await createOrdersStore(await engine.open());
    const draft = await store.create('acct', 'p', fields);
    await store.transition(draft.id, ['draft'], 'queued');
    assert.ok(await store.transition(draft.id, ['queued'], 'sending'));
    assert.equal(await store.transition(draft.id, ['queued'], 'sending'), null);
    assert.equal(await store.remove(draft.id, ['draft']), false);
  });

  test('only due queued drafts of the signed-in account are handed out, oldest first', async () => {
    const store = await createOrdersStore(await engine.open());
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
    const store = await createOrdersStore(await engine.open());
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
    const sql = await engine.open();
    await createOrdersStore(sql);
    await sql.run(`UPDATE schema_versions SET version = 99 WHERE domain = 'orders'`);
    await assert.rejects(createOrdersStore(sql), /newer PrintDesk/);
  });

  test('two workstations claiming from one store never take the same order, and each claim is leased', async () => {
    const sql = await engine.open();
    const ada = await createOrdersStore(sql, undefined, { workstation: 'bench-1', actor: () => 'ada@shop.example on bench-1' });
    const bob = await createOrdersStore(await engine.openAgain(sql), undefined, { workstation: 'bench-2', actor: () => 'bob@shop.example on bench-2' });
    const drafts = [];
    for (let i = 0; i < 40; i++) drafts.push(await ada.create('acct', 'p', fields, `SHOP-${i}`));
    for (const draft of drafts) await ada.transition(draft.id, ['draft'], 'queued', { nextAttemptAt: 0 });
    const claimAll = async (store: typeof ada) => {
      const taken: string[] = [];
      for (let draft = await store.claimNext(1_000, 'acct', [], 61_000); draft; draft = await store.claimNext(1_000, 'acct', [], 61_000)) taken.push(draft.id);
      return taken;
    };
    const [byAda, byBob] = await Promise.all([claimAll(ada), claimAll(bob)]);
    assert.equal(byAda.length + byBob.length, 40, 'every order claimed');
    assert.equal(new Set([...byAda, ...byBob]).size, 40, 'none claimed twice');
    const one = await ada.get(byAda[0] ?? byBob[0]);
    assert.equal(one?.state, 'sending');
    assert.equal(one?.attempts, 1);
    const history = await ada.history(drafts[0].id);
    assert.equal(history[0].actor, 'ada@shop.example on bench-1', 'who drafted it, and where');
  });

  test("another workstation's send is left alone while its lease runs, and taken over once it lapses", async () => {
    let clock = new Date('2026-11-24T10:00:00Z');
    const sql = await engine.open();
    const gone = await createOrdersStore(sql, () => clock, { workstation: 'bench-1', actor: () => null });
    const other = await createOrdersStore(await engine.openAgain(sql), () => clock, { workstation: 'bench-2', actor: () => null });
    const draft = await gone.create('acct', 'p', fields, 'SHOP-1');
    await gone.transition(draft.id, ['draft'], 'queued', { nextAttemptAt: 0 });
    const lease = clock.getTime() + 60_000;
    assert.equal((await gone.claimNext(clock.getTime(), 'acct', [], lease))?.id, draft.id);
    // bench-1's process numbers mean nothing on bench-2: only the lease counts there.
    assert.equal(await other.requeueInterrupted(new Set(), () => false), 0, 'a live lease is respected');
    clock = new Date(lease - 1_000);
    assert.equal(await gone.renewLeases(clock.getTime() + 60_000), 1, 'renewed while the answer is awaited');
    clock = new Date(lease + 30_000);
    assert.equal(await other.requeueInterrupted(new Set(), () => false), 0, 'renewed, so still bench-1’s');
    clock = new Date(lease + 61_000);
    assert.equal(await other.requeueInterrupted(new Set(), () => false), 1, 'lapsed: taken over');
    const back = await other.get(draft.id);
    assert.deepEqual([back?.state, back?.unanswered, back?.orderReference], ['queued', true, 'SHOP-1'], 'sent again under the same reference, as one whose answer was lost');
  });

  test("an answer that comes after the send was taken over is not written over the new sender's, nor is an earlier attempt's over a later one", async () => {
    let clock = new Date('2026-11-24T10:00:00Z');
    const sql = await engine.open();
    const slow = await createOrdersStore(sql, () => clock, { workstation: 'bench-1', actor: () => null });
    const other = await createOrdersStore(await engine.openAgain(sql), () => clock, { workstation: 'bench-2', actor: () => null });
    const draft = await slow.create('acct', 'p', fields, 'SHOP-1');
    await slow.transition(draft.id, ['draft'], 'queued', { nextAttemptAt: 0 });
    const lease = clock.getTime() + 60_000;
    const first = await slow.claimNext(clock.getTime(), 'acct', [], lease);
    assert.ok(first);
    // bench-1's answer is slow: its lease lapses, bench-2 takes the draft over and is sending it now.
    clock = new Date(lease + 1_000);
    assert.equal(await other.requeueInterrupted(new Set(), () => false), 1);
    const second = await other.claimNext(clock.getTime(), 'acct', [], clock.getTime() + 60_000);
    assert.equal(second?.attempts, 2);
    const placed = { orderId: 'o-1', status: 'Created', createdAt: clock.toISOString(), shippingPrice: 5, currency: 'EUR' };
    assert.equal(await slow.transition(draft.id, ['sending'], 'rejected', { problem: { kind: 'invalid', message: 'late' }, heldAttempt: first.attempts }), null, "bench-1's late answer is not written");
    assert.equal((await other.get(draft.id))?.state, 'sending', "still bench-2's send");
    const done = await other.transition(draft.id, ['sending'], 'placed', { placed, heldAttempt: second?.attempts });
    assert.deepEqual([done?.state, done?.order?.orderId], ['placed', 'o-1'], "bench-2's own answer is");
    // Without the condition, the same late answer would have been written: the condition is what refuses it.
    assert.ok(await slow.transition(draft.id, ['placed'], 'placed', { placed }), 'the store takes a transition without it');

    // One sender, two attempts: the first put back and claimed again; the first's answer comes last.
    const again = await slow.create('acct', 'p', fields, 'SHOP-2');
    await slow.transition(again.id, ['draft'], 'queued', { nextAttemptAt: 0 });
    const one = await slow.claimNext(clock.getTime(), 'acct', [], clock.getTime() + 60_000);
    assert.equal(await slow.requeueInterrupted(new Set(), () => false), 1);
    const two = await slow.claimNext(clock.getTime() + 120_000, 'acct', [], clock.getTime() + 180_000);
    assert.deepEqual([one?.id, two?.id, one?.attempts, two?.attempts], [again.id, again.id, 1, 2]);
    assert.equal(await slow.transition(again.id, ['sending'], 'queued', { nextAttemptAt: 0, heldAttempt: one?.attempts }), null, "the first attempt's answer is not written");
    assert.equal((await slow.transition(again.id, ['sending'], 'placed', { placed, heldAttempt: two?.attempts }))?.state, 'placed', "the second's is");
  });
});

test('on a team store, the drafts a batch chunk makes and queues are told of at its commit, each once', async () => {
  const sql = await postgresEngine.open();
  const listener = await postgresEngine.openAgain(sql);
  const heard: string[] = [];
  const stop = await listener.listen(DRAFTS_CHANNEL, (payload) => heard.push(...(JSON.parse(payload) as { ids: string[] }).ids));
  const store = await createOrdersStore(sql, undefined, { workstation: 'bench-1', actor: () => null });
  const made = await sql.transaction(async (tx) => {
    const one = await store.create('acct', 'p', fields, 'SHOP-1', undefined, tx);
    await store.transition(one.id, ['draft'], 'queued', { nextAttemptAt: 0 }, false, tx);
    return [one.id, ...(await store.createQueued('acct', 'p', 'batch-1', [{ reference: 'SHOP-2', fields }, { reference: 'SHOP-3', fields }], tx))];
  });
  const queued = await Promise.all(made.map((id) => store.get(id)));
  assert.deepEqual(queued.map((d) => d?.state), ['queued', 'queued', 'queued']);
  assert.deepEqual((await store.history(made[1])).map((e) => e.kind), ['drafted', 'queued'], 'made in a chunk, its history as one placed by hand');
  // A change after it is told of again.
  await store.transition(made[0], ['queued'], 'queued', { held: true });
  for (let wait = 0; heard.length < 4 && wait < 100; wait++) await new Promise((resolve) => setTimeout(resolve, 50));
  await stop();
  assert.deepEqual(heard, [...made, made[0]]);
});
