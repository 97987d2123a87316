// Team mode, batches: two workstations (two hosts in this process) on one PostgreSQL store and one service.
// A batch sent on one shows its progress on the other as it goes, told (LISTEN/NOTIFY), not polled; a pause,
// resume or cancel made on either shows on both and holds everywhere; two sending the same batch at once send it
// once, the second joining the first; and one that joined a send whose sender vanished sends it itself.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createBatchHost, type BatchHost } from '../batch-host.ts';
import type { BatchProgress } from '../../electron/services/batch/schemas.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import type { PostgresStore } from '../../electron/services/storage/postgres-sql.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { dropListeningConnections, postgresEngine } from '../sql-engines.ts';

let sandbox: TestSandbox;
let projectId: string;

before(async () => {
  sandbox = await startTestSandbox({ rateLimits: { default: { limit: 1_000_000, windowSeconds: 60 } } });
  projectId = (await sandbox.operator.listProjects())[0].projectId;
  await sandbox.operator.addModel(projectId, join(corpus, 'stl', 'Cube-binary.stl'));
});
after(() => sandbox.dispose());

const HEADER = 'orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,quantity';
const fileOf = (n: number, prefix: string) =>
  new TextEncoder().encode([HEADER, ...Array.from({ length: n }, (_, i) => `${prefix}-${i},Ada,Lovelace,Keizersgracht ${i + 1},1015 CJ,Amsterdam,NL,ada@example.com,Cube-binary.stl,1`)].join('\n'));

interface Bench {
  host: BatchHost;
  name: string;
  /** every progress the host told its view, in order */
  progress: BatchProgress[];
  /** what the host said may have been missed (its listening connection came back) */
  rereads: number;
}

/** A workstation of the shop: its own computer's database, the team's store, the shop's service, signed in. */
async function bench(name: string, store: PostgresStore, options: { sends?: boolean; tickMs?: number } = {}): Promise<Bench> {
  const seen: Bench = { host: undefined as unknown as BatchHost, name, progress: [], rereads: 0 };
  seen.host = await createBatchHost({
    db: openDatabase(':memory:'),
    baseUrl: sandbox.baseUrl,
    timeoutMs: 5_000,
    tickMs: options.tickMs ?? 250,
    onProgress: (progress) => seen.progress.push(progress),
    team: { store, identity: { workstation: name, actor: () => `${DEMO_EMAIL} on ${name}` }, onReread: () => seen.rereads++ },
  });
  await seen.host.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  // A workstation that only watches: whatever it shows, it was told.
  if (options.sends === false) seen.host.orders.outbox.pause();
  await seen.host.start();
  return seen;
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(await check(), `timed out waiting until ${what}`);
}

const ofBatch = (bench: Bench, batchId: string) => bench.progress.filter((p) => p.batchId === batchId);

/** The references the service holds orders under, each with how many. */
async function placedAtService(prefix: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const order of await sandbox.operator.listOrders({ projectId })) {
    if (order.orderReference.startsWith(`${prefix}-`)) counts.set(order.orderReference, (counts.get(order.orderReference) ?? 0) + 1);
  }
  return counts;
}

type Benches = { store: PostgresStore; a: Bench; b: Bench };

/**
 * Runs `scenario` on two workstations sharing a fresh store, the service answering each order after
 * `latencyMs` (slow enough to be seen on its way); bench-2 sends nothing when `bSends` is false.
 */
async function onTwoBenches(options: { bSends?: boolean; latencyMs?: number }, scenario: (benches: Benches) => Promise<void>) {
  const store = await postgresEngine.open();
  const a = await bench('bench-1', store);
  const b = await bench('bench-2', await postgresEngine.openAgain(store), { sends: options.bSends ?? true });
  if (options.latencyMs) sandbox.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: options.latencyMs });
  try {
    await scenario({ store, a, b });
  } finally {
    sandbox.faults.clear();
    await Promise.all([a.host.stop(), b.host.stop()]);
  }
}

test('a batch sent on one workstation shows on the other as it goes, from sending to done, told rather than polled', { timeout: 120_000 }, () =>
  onTwoBenches({ bSends: false, latencyMs: 100 }, async ({ a, b }) => {
    const batch = await a.host.batches.import({ bytes: fileOf(60, 'LIVE'), fileName: 'live.csv', projectId });
    await a.host.batches.send(batch.id);
    await until(() => ofBatch(b, batch.id).some((p) => p.state === 'sending' && p.done > 0 && p.done < 60), 'bench-2 sees the batch sending, part of it placed');
    await until(() => ofBatch(b, batch.id).some((p) => p.state === 'done' && p.done === 60), 'bench-2 sees it done');
    const onTwo = ofBatch(b, batch.id);
    const moving = new Set(onTwo.filter((p) => p.state === 'sending').map((p) => p.done));
    assert.ok(moving.size >= 2, `its count moved on bench-2 (${[...moving].join(', ')})`);
    assert.equal(onTwo.at(-1)?.sentBy, `${DEMO_EMAIL} on bench-1`, 'who sent it, and where');
    assert.ok(onTwo.every((p, i) => i === 0 || p.done >= onTwo[i - 1].done), 'its count never goes back');
    const summary = await b.host.batches.get(batch.id);
    assert.deepEqual([summary.state, summary.sentBy, summary.preparing], ['done', `${DEMO_EMAIL} on bench-1`, false]);
    assert.equal([...(await placedAtService('LIVE')).values()].filter((n) => n === 1).length, 60);
  }));

test('paused on one workstation, the batch is held on both and shown paused on both; resumed on the other, both send it again and it ends done once', { timeout: 120_000 }, () =>
  onTwoBenches({ latencyMs: 80 }, async ({ a, b, store }) => {
    const batch = await a.host.batches.import({ bytes: fileOf(40, 'HOLD'), fileName: 'hold.csv', projectId });
    await a.host.batches.send(batch.id);
    await until(async () => (await a.host.batches.progress(batch.id)).done > 0, 'the first orders are placed');
    await a.host.batches.pause(batch.id);
    await until(() => ofBatch(b, batch.id).at(-1)?.state === 'paused', 'bench-2 shows it paused');
    // What was on its way at the pause finishes; then nothing moves, on either workstation.
    await until(async () => (await store.get<{ n: number }>("SELECT COUNT(*) AS n FROM drafts WHERE batch_id = ? AND state = 'sending'", [batch.id]))?.n === 0, 'what was on its way settled');
    const held = (await a.host.batches.progress(batch.id)).done;
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal((await b.host.batches.progress(batch.id)).done, held, 'nothing is sent while it is paused, by either');

    // Resumed on bench-2: bench-1's outbox, which held the batch itself, lets it go too.
    const resumed = await b.host.batches.resume(batch.id);
    assert.equal(resumed.state, 'sending');
    await until(() => ofBatch(a, batch.id).at(-1)?.state === 'sending', 'bench-1 shows it sending again');
    // Both resume it at once: the second is no error, and changes nothing.
    assert.equal((await a.host.batches.resume(batch.id)).state, 'sending');
    const [onA, onB] = await Promise.all([a.host.batches.settled(batch.id), b.host.batches.settled(batch.id)]);
    assert.deepEqual([onA.state, onA.done, onB.state, onB.done], ['done', 40, 'done', 40]);
    const finished = await store.get<{ state: string; finished_at: string | null }>('SELECT state, finished_at FROM batches WHERE id = ?', [batch.id]);
    assert.deepEqual([finished?.state, typeof finished?.finished_at], ['done', 'string']);
    const placed = await placedAtService('HOLD');
    assert.deepEqual([placed.size, Math.max(...placed.values())], [40, 1], 'every order placed, once');
  }));

test('cancelled on one workstation while the other waits for it: both show it cancelled and the waiter is answered', { timeout: 120_000 }, () =>
  onTwoBenches({ bSends: false, latencyMs: 100 }, async ({ a, b }) => {
    const batch = await a.host.batches.import({ bytes: fileOf(40, 'STOP'), fileName: 'stop.csv', projectId });
    await a.host.batches.send(batch.id);
    const waiting = a.host.batches.settled(batch.id);
    await until(() => ofBatch(b, batch.id).some((p) => p.state === 'sending'), 'bench-2 sees it sending');
    const cancelled = await b.host.batches.cancel(batch.id);
    assert.equal(cancelled.state, 'cancelled');
    assert.equal((await waiting).state, 'cancelled', "bench-1's wait ends with the cancel made on bench-2");
    await until(() => ofBatch(a, batch.id).at(-1)?.state === 'cancelled', 'bench-1 shows it cancelled');
  }));

test('two workstations sending one batch at once: the second joins the first, saying who sends it, and nothing is doubled', { timeout: 180_000 }, () =>
  onTwoBenches({ latencyMs: 30 }, async ({ a, b, store }) => {
    const batch = await a.host.batches.import({ bytes: fileOf(600, 'BOTH'), fileName: 'both.csv', projectId });
    const answers = await Promise.all([a.host.batches.send(batch.id), b.host.batches.send(batch.id)]);
    const joined = answers.filter((p) => p.joined);
    assert.equal(joined.length, 1, `one send joined the other (${JSON.stringify(answers.map((p) => [p.state, p.joined]))})`);
    const [sender, joiner] = answers[0].joined ? [b, a] : [a, b];
    assert.equal(joined[0].sentBy, `${DEMO_EMAIL} on ${sender.name}`, 'the one who joined is told who sends it, and where');
    const [onA, onB] = await Promise.all([a.host.batches.settled(batch.id), b.host.batches.settled(batch.id)]);
    assert.deepEqual([onA.state, onA.done, onB.state, onB.done], ['done', 600, 'done', 600]);
    assert.ok(ofBatch(joiner, batch.id).some((p) => p.state === 'sending' && p.done > 0 && p.done < 600), 'the one who joined followed its progress');
    const drafts = await store.get<{ n: number; refs: number }>('SELECT COUNT(*) AS n, COUNT(DISTINCT order_reference) AS refs FROM drafts WHERE batch_id = ?', [batch.id]);
    assert.deepEqual(drafts, { n: 600, refs: 600 }, 'one draft an order');
    const placed = await placedAtService('BOTH');
    assert.deepEqual([placed.size, Math.max(...placed.values())], [600, 1], 'the service holds each order once');
    const sentFrom = await store.all<{ claimed_by: string; n: number }>("SELECT claimed_by, COUNT(*) AS n FROM drafts WHERE batch_id = ? GROUP BY claimed_by", [batch.id]);
    assert.equal(sentFrom.length, 2, `both workstations' outboxes sent part of it (${JSON.stringify(sentFrom)})`);
  }));

test('a send joined while another workstation was queuing it, which then vanished: the one who joined sends it once the claim lapses', { timeout: 120_000 }, () =>
  onTwoBenches({ bSends: false }, async ({ a, store }) => {
    const batch = await a.host.batches.import({ bytes: fileOf(20, 'GONE'), fileName: 'gone.csv', projectId });
    // A workstation that claimed the send, set it sent, and stopped answering (its claim lapses in a moment).
    await store.run("UPDATE batches SET send_claim = 'bench-9:1', send_claim_until = ?, sent_by = ?, sent_at = '2026-11-20T10:00:00Z' WHERE id = ?", [Date.now() + 3_000, `${DEMO_EMAIL} on bench-9`, batch.id]);
    const answer = await a.host.batches.send(batch.id);
    assert.deepEqual([answer.joined, answer.preparing, answer.sentBy], [true, true, `${DEMO_EMAIL} on bench-9`]);
    await assert.rejects(a.host.batches.updateCell(batch.id, 2, 1, 'Grace'), /being sent by demo@printdesk\.test on bench-9/);
    const done = await a.host.batches.settled(batch.id);
    assert.deepEqual([done.state, done.done, done.sentBy], ['done', 20, `${DEMO_EMAIL} on bench-1`]);
    const placed = await placedAtService('GONE');
    assert.deepEqual([placed.size, Math.max(...placed.values())], [20, 1]);
  }));

test("after the listening connection dropped and came back, a batch on its way is read again and the views are told to read their lists", { timeout: 120_000 }, () =>
  onTwoBenches({ bSends: false, latencyMs: 60 }, async ({ a, b, store }) => {
    const batch = await a.host.batches.import({ bytes: fileOf(20, 'DROP'), fileName: 'drop.csv', projectId });
    await a.host.batches.send(batch.id);
    await a.host.batches.pause(batch.id);
    await until(() => ofBatch(b, batch.id).at(-1)?.state === 'paused', 'bench-2 shows it paused');
    const before = ofBatch(b, batch.id).length;
    // The network between the workstations and the store drops their listening connections.
    await dropListeningConnections(store);
    await until(() => b.rereads > 0, 'bench-2 says what it shows may be stale');
    await until(() => ofBatch(b, batch.id).length > before, 'bench-2 reads the batch on its way again');
    assert.equal(ofBatch(b, batch.id).at(-1)?.state, 'paused');
    // And it hears again: a resume made on bench-1 shows on bench-2.
    await a.host.batches.resume(batch.id);
    await until(() => ofBatch(b, batch.id).at(-1)?.state !== 'paused', 'bench-2 hears of the resume after the reconnect');
    await a.host.batches.settled(batch.id);
  }));
