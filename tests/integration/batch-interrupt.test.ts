// `printdesk batch` under interruptions: Ctrl+C stops at once (what is in flight is aborted, its reference
// settles it next run) and says what it stopped, in every phase; a new run backs off afresh but keeps a
// Retry-After; orders waiting
// for the service go when it answers; and a sender killed but not yet reaped (a zombie) is known dead.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { createBatchHost } from '../batch-host.ts';
import { processAlive } from '../../electron/services/orders/sender-lock.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { startBatchSandbox, stopBatchSandbox } from './batch-sandbox.ts';

const root = join(import.meta.dirname, '..', '..');
let sandbox: TestSandbox;
let projectId: string;
let dir: string;

before(async () => {
  ({ sandbox, projectId, dir } = await startBatchSandbox('batch-interrupt-'));
});
after(() => stopBatchSandbox({ sandbox, projectId, dir }));

const HEADER = 'orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,quantity';
const csvOf = (name: string, refs: readonly string[], quantity = 1) => {
  const path = join(dir, name);
  writeFileSync(path, [HEADER, ...refs.map((ref, i) => `${ref},Ada,Lovelace,Main Street ${i + 1},1015 CJ,Amsterdam,NL,ada@example.com,Cube-binary.stl,${quantity}`)].join('\n'));
  return path;
};
const onService = async (prefix: string) => (await sandbox.operator.listOrders({ projectId })).map((o) => o.orderReference).filter((ref) => ref.startsWith(prefix));
/** Until the sandbox has seen a request the fault on `path` holds (the command is in that phase). */
/** Until a request to `path` is held by its fault; a sender that died first fails the test instead of hanging it. */
async function held(path: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!sandbox.faults.list().some((f) => f.path === path && f.hits > 0)) {
    if (Date.now() > deadline) throw new Error(`no request to ${path} within ${timeoutMs} ms`);
    await delay(20);
  }
}

/** The CLI in its own process, Ctrl+C once the fault on `path` holds a request; how long it took to stop. */
async function interruptedAt(path: string, csv: string, userData: string) {
  const env = { ...process.env, PRINTDESK_USER_DATA: join(dir, userData), PRINTDESK_EMAIL: DEMO_EMAIL, PRINTDESK_PASSWORD: sandbox.demoAccount.password };
  const child = spawn(process.execPath, [join(root, 'bin', 'printdesk.js'), 'batch', csv, '--project', projectId, '--service', sandbox.baseUrl], { cwd: root, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await held(path);
  const at = Date.now();
  child.kill('SIGINT');
  const code = await exited;
  return { code, stdout, stderr, stoppedInMs: Date.now() - at };
}

// A request the service holds for a minute: a command that waited for it would take that long to stop.
const MINUTE = 60_000;
/** Far below the minute the request is held, and far above a loaded machine's start-up of a Node process. */
const PROMPTLY_MS = 15_000;

test('Ctrl+C while signing in or checking the file says so and exits 130 at once; nothing is sent', { timeout: 120_000 }, async () => {
  for (const [path, phase] of [['/Auth/Login', 'signing in'], ['/Shipping/GetShippingMethods', 'checking the file']] as const) {
    sandbox.faults.set({ kind: 'latency', path, ms: MINUTE });
    try {
      const run = await interruptedAt(path, csvOf(`phase-${phase.split(' ')[0]}.csv`, ['P-1', 'P-2']), `phase-${phase.split(' ')[0]}`);
      assert.equal(run.code, 130, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stderr, new RegExp(`Interrupted while ${phase}: nothing was sent`));
      assert.ok(run.stoppedInMs < PROMPTLY_MS, `stopped ${run.stoppedInMs} ms after Ctrl+C`);
    } finally {
      sandbox.faults.clear();
    }
  }
  assert.deepEqual(await onService('P-'), []);
});

test('Ctrl+C while an order is in flight aborts it at once; the next run settles it by its reference and places each order once', { timeout: 120_000 }, async () => {
  const refs = Array.from({ length: 6 }, (_, i) => `F-${i}`);
  const csv = csvOf('in-flight.csv', refs);
  // The service acts on each order, then holds its answer for a minute.
  sandbox.faults.set({ kind: 'stall', path: '/Order/CreateOrder', ms: MINUTE });
  let run;
  try {
    run = await interruptedAt('/Order/CreateOrder', csv, 'in-flight');
  } finally {
    sandbox.faults.clear();
  }
  assert.equal(run.code, 130, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stderr, /Interrupted: orders not yet sent stay queued/);
  assert.ok(run.stoppedInMs < PROMPTLY_MS, `stopped ${run.stoppedInMs} ms after Ctrl+C`);

  const env = { ...process.env, PRINTDESK_USER_DATA: join(dir, 'in-flight'), PRINTDESK_EMAIL: DEMO_EMAIL, PRINTDESK_PASSWORD: sandbox.demoAccount.password };
  const again = spawn(process.execPath, [join(root, 'bin', 'printdesk.js'), 'batch', csv, '--project', projectId, '--service', sandbox.baseUrl], { cwd: root, env, stdio: 'ignore' });
  assert.equal(await new Promise((resolve) => again.on('exit', resolve)), 0);
  assert.deepEqual((await onService('F-')).sort(), [...refs].sort(), 'each order placed once');
});

test('a new run backs off afresh, whatever the attempts of earlier runs, and sends what an earlier run left waiting', { timeout: 60_000 }, async () => {
  const db = openDatabase(join(dir, 'afresh.db'));
  const host = await createBatchHost({ db, baseUrl: sandbox.baseUrl, serviceKey: 'sandbox', tickMs: 50 });
  try {
    await host.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
    const bytes = readFileSync(csvOf('afresh.csv', ['A-1', 'A-2', 'A-3']));
    const batch = await host.batches.import({ bytes, fileName: 'afresh.csv', projectId });
    // As earlier runs killed after many tries leave them: queued, the next try an hour away.
    host.orders.outbox.pause();
    await host.batches.send(batch.id);
    db.prepare(`UPDATE drafts SET attempts = 12, next_attempt_at = ? WHERE batch_id = ?`).run(Date.now() + 3_600_000, batch.id);
    sandbox.faults.set({ kind: 'status-5xx', path: '/Order/CreateOrder', count: 1, status: 503 });
    const failedAt = Date.now();
    host.orders.outbox.resume();
    await host.orders.start();
    // The one that met the 503 waits the first step of the backoff, not the twelfth (minutes).
    let waits: { next_attempt_at: number } | undefined;
    while (!(waits = db.prepare<[], { next_attempt_at: number }>(`SELECT next_attempt_at FROM drafts WHERE state = 'queued' AND next_attempt_at > 0`).get())) await delay(10);
    assert.ok(waits.next_attempt_at - failedAt < 5_000, `next try in ${waits.next_attempt_at - failedAt} ms`);
    const done = await host.batches.settled(batch.id);
    assert.equal(done.done, 3);
  } finally {
    sandbox.faults.clear();
    await host.stop();
    db.close();
  }
});

test('a new run keeps a wait the service asked for (a 429\'s Retry-After) and starts only its own backoffs afresh', { timeout: 60_000 }, async () => {
  const db = openDatabase(join(dir, 'asked.db'));
  const first = await createBatchHost({ db, baseUrl: sandbox.baseUrl, serviceKey: 'sandbox', tickMs: 50 });
  const bytes = readFileSync(csvOf('asked.csv', ['W-1', 'W-2', 'W-3']));
  let batchId: string;
  try {
    await first.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
    batchId = (await first.batches.import({ bytes, fileName: 'asked.csv', projectId })).id;
    sandbox.faults.set({ kind: 'rate-limit', path: '/Order/CreateOrder', count: 1, retryAfterSeconds: 3600 });
    await first.orders.start();
    await first.batches.send(batchId);
    while ((await onService('W-')).length < 2) await delay(20);
  } finally {
    sandbox.faults.clear();
    await first.stop();
  }
  type Row = { order_reference: string; state: string; next_attempt_at: number; asked_to_wait: number };
  const rows = () => db.prepare<[string], Row>(`SELECT order_reference, state, next_attempt_at, asked_to_wait FROM drafts WHERE batch_id = ? ORDER BY order_reference`).all(batchId);
  const told = rows().find((row) => row.state === 'queued');
  assert.ok(told && told.asked_to_wait === 1 && told.next_attempt_at - Date.now() > 3_500_000, `the 429's draft waits the hour it was told: ${JSON.stringify(rows())}`);
  // One of this program's own backoffs, as a run killed mid-way leaves it: a new run tries it at once.
  db.prepare(`UPDATE drafts SET state = 'queued', placed = NULL, next_attempt_at = ?, asked_to_wait = 0, order_reference = 'W-4' WHERE batch_id = ? AND state = 'placed' AND order_reference = (SELECT MIN(order_reference) FROM drafts WHERE batch_id = ? AND state = 'placed')`).run(Date.now() + 3_600_000, batchId, batchId);
  const again = await createBatchHost({ db, baseUrl: sandbox.baseUrl, serviceKey: 'sandbox', tickMs: 50 });
  try {
    await again.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
    await again.orders.start();
    while (!(await onService('W-4')).length) await delay(20);
    await delay(300);
    const still = rows().find((row) => row.order_reference === told.order_reference);
    assert.deepEqual({ state: still?.state, next: still?.next_attempt_at }, { state: 'queued', next: told.next_attempt_at }, 'still waiting for the hour the service asked for');
    assert.deepEqual((await onService('W-')).sort(), ['W-1', 'W-2', 'W-3', 'W-4'].filter((ref) => ref !== told.order_reference).sort());
  } finally {
    await again.stop();
    db.close();
  }
});

test('orders waiting for the service become due when it answers again, in the command line as in the app', { timeout: 60_000 }, async () => {
  const db = openDatabase(join(dir, 'due.db'));
  const host = await createBatchHost({ db, baseUrl: sandbox.baseUrl, serviceKey: 'sandbox', tickMs: 50 });
  try {
    await host.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
    await host.start();
    const bytes = readFileSync(csvOf('due.csv', ['R-1', 'R-2']));
    const batch = await host.batches.import({ bytes, fileName: 'due.csv', projectId });
    host.orders.outbox.pause();
    await host.batches.send(batch.id);
    // As a reset leaves them: waiting for the service, their next try far off.
    db.prepare(`UPDATE drafts SET waits_for_service = 1, next_attempt_at = ? WHERE batch_id = ?`).run(Date.now() + 3_600_000, batch.id);
    host.orders.outbox.resume();
    host.client.noteReachability(false);
    await host.client.getProjects();
    const done = await host.batches.settled(batch.id);
    assert.equal(done.done, 2);
  } finally {
    await host.stop();
    db.close();
  }
});

test('a sender killed and not yet reaped (a zombie) is known to be gone: its send is taken up at once', { timeout: 120_000, skip: process.platform === 'win32' }, async (t) => {
  const dbPath = join(dir, 'zombie', 'printdesk.db');
  const db = openDatabase(dbPath);
  const host = await createBatchHost({ db, baseUrl: sandbox.baseUrl, serviceKey: 'sandbox', tickMs: 50 });
  await host.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  const bytes = readFileSync(csvOf('zombie.csv', ['Z-1']));
  const batch = await host.batches.import({ bytes, fileName: 'zombie.csv', projectId });
  host.orders.outbox.pause();
  await host.batches.send(batch.id);
  await host.stop();
  db.close();

  // The sender runs under a parent that never reaps it (the shell becomes `sleep`): killed, it is a zombie.
  const worker = join(import.meta.dirname, 'fixtures', 'outbox-worker.ts');
  const account = `sandbox ${DEMO_EMAIL}`;
  sandbox.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: MINUTE });
  const quoted = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
  const shell = spawn('sh', ['-c', `${[process.execPath, worker, dbPath, sandbox.baseUrl, DEMO_EMAIL, sandbox.demoAccount.password, account].map(quoted).join(' ')} & echo $!; exec sleep 120`], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Stopped even when the test runs out of time: a host left running would keep the file from ending.
  t.after(() => shell.kill('SIGKILL'));
  let out = '';
  shell.stdout.on('data', (chunk: Buffer) => (out += chunk));
  try {
    while (!out.includes('\n')) await delay(20);
    const pid = Number(out.trim());
    await held('/Order/CreateOrder');
    process.kill(pid, 'SIGKILL');
    const stat = `/proc/${pid}/stat`;
    if (existsSync('/proc')) while (readFileSync(stat, 'utf8').split(') ')[1]?.[0] !== 'Z') await delay(20);
    assert.equal(processAlive(pid), true, 'kill(pid, 0) still passes a zombie');
    sandbox.faults.clear();

    const db2 = openDatabase(dbPath);
    const again = await createBatchHost({ db: db2, baseUrl: sandbox.baseUrl, serviceKey: 'sandbox', tickMs: 50 });
    let stopped = false;
    t.after(async () => {
      if (!stopped) await again.stop();
    });
    try {
      await again.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
      await again.start();
      const done = await again.batches.settled(batch.id);
      assert.equal(done.done, 1, 'taken up at start, not after the ten-minute sweep');
      assert.deepEqual(await onService('Z-'), ['Z-1']);
    } finally {
      stopped = true;
      await again.stop();
      db2.close();
    }
  } finally {
    sandbox.faults.clear();
    shell.kill('SIGKILL');
  }
});
