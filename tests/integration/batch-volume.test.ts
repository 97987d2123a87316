// Checking a batch at a print shop's volume: more distinct quotes than the service's rate limit allows
// at once, and a quote the service asks to wait a long time for, are waits, never a row's problem; the
// check goes at the limit's pace with progress and time left, and a run again says the same.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createBatchHost } from '../batch-host.ts';
import type { BatchChecking } from '../../electron/services/batch/schemas.ts';
import { runBatchCommand } from '../../electron/cli/batch.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const ORDERS = 2_000;
const COUNTRIES = ['NL', 'DE', 'BE', 'FR', 'ES', 'IT', 'AT', 'DK'];
/** 8 countries × 30 quantities: 240 distinct quotes, four windows of the limit below. */
const QUANTITIES = 30;
const QUOTE_LIMIT = { limit: 70, windowSeconds: 3 };

let sandbox: TestSandbox;
let projectId: string;
let dir: string;

before(async () => {
  sandbox = await startTestSandbox({ rateLimits: { default: { limit: 1_000_000, windowSeconds: 60 }, 'Shipping/GetShippingMethods': QUOTE_LIMIT } });
  projectId = (await sandbox.operator.listProjects())[0].projectId;
  await sandbox.operator.addModel(projectId, join(corpus, 'stl', 'Cube-binary.stl'));
  dir = mkdtempSync(join(tmpdir(), 'batch-volume-'));
});
after(async () => {
  await sandbox.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function bigFile(): string {
  const lines = ['orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,quantity'];
  for (let i = 0; i < ORDERS; i++) {
    const country = COUNTRIES[i % COUNTRIES.length];
    const quantity = 1 + (Math.floor(i / COUNTRIES.length) % QUANTITIES);
    lines.push(`V-${i},Ada,Lovelace,Main Street ${i + 1},1015 CJ,Amsterdam,${country},ada@example.com,Cube-binary.stl,${quantity}`);
  }
  const path = join(dir, 'volume.csv');
  writeFileSync(path, lines.join('\n'));
  return path;
}

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PRINTDESK_USER_DATA: join(dir, 'user-data'), PRINTDESK_EMAIL: DEMO_EMAIL, PRINTDESK_PASSWORD: sandbox.demoAccount.password },
  };
  return { code: await runBatchCommand(args, io), stdout, stderr };
}

/** What a run concluded, without its progress lines (their timing differs from run to run). */
const conclusion = (stdout: string) => stdout.split('\n').filter((line) => !line.startsWith('checking:') && !line.startsWith('progress:')).join('\n');

test('a 2,000-order file needing more distinct quotes than the rate limit allows is checked at its pace: 0 rows flagged, and a run again says the same', { timeout: 240_000 }, async () => {
  const file = bigFile();
  const first = await cli([file, '--project', projectId, '--service', sandbox.baseUrl, '--dry-run']);
  assert.equal(first.code, 0, first.stderr);
  assert.doesNotMatch(first.stderr, /Problems|row \d+/);
  assert.match(first.stdout, /Dry run: 2000 orders are valid; 2000 would be sent\. Nothing was sent\./);
  // Progress with the count of quotes and the time left, and the wait for the limit said as such.
  assert.match(first.stdout, /checking: Checking shipping: \d+\/240 quotes/);
  assert.match(first.stdout, /checking: Checking shipping: 240\/240 quotes/);
  assert.match(first.stdout, /the service's rate limit: next quotes in \d+ s/);
  assert.match(first.stdout, /about \d+ (s|min)/);
  assert.match(first.stdout, /Shipping: €[\d,.]+ for 2,000 orders; delivery /);

  const again = await cli([file, '--project', projectId, '--service', sandbox.baseUrl, '--dry-run']);
  assert.equal(again.code, first.code);
  assert.equal(conclusion(again.stdout), conclusion(first.stdout));
  assert.equal(again.stderr, first.stderr);
});

test('a quote the service asks to wait over 30 s for is waited for: no row flagged, the wait shown as progress', { timeout: 120_000 }, async () => {
  const db = openDatabase(join(dir, 'wait.db'));
  const checking: BatchChecking[] = [];
  // The batches' clock runs 20 times faster than the wall's: the 31 s wait passes in about a second and a half,
  // taken in the check's own steps (it sleeps at most a quarter second at a time, and reads the clock between).
  const start = Date.now();
  const now = () => start + (Date.now() - start) * 20;
  const host = await createBatchHost({ db, baseUrl: sandbox.baseUrl, serviceKey: 'sandbox', now, onChecking: (c) => checking.push(c) });
  try {
    await host.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
    sandbox.faults.set({ kind: 'rate-limit', path: '/Shipping/GetShippingMethods', count: 1, retryAfterSeconds: 31 });
    const csv = ['orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,quantity', 'W-1,Ada,Lovelace,Main Street 1,1015 CJ,Amsterdam,PT,ada@example.com,Cube-binary.stl,97'].join('\n');
    const batch = await host.batches.import({ bytes: new TextEncoder().encode(csv), fileName: 'wait.csv', projectId });
    assert.equal(batch.rowsWithErrors, 0, JSON.stringify(await host.batches.errors(batch.id)));
    assert.equal(batch.sendable, 1);
    const waits = checking.filter((c) => c.waitingUntil !== null && c.done === 0);
    assert.ok(waits.length > 0, 'the wait is progress, said with until when');
    assert.ok(Date.parse(waits[0].waitingUntil ?? '') - start >= 30_000, 'the wait is the one the service asked for');
    assert.deepEqual(checking.at(-1), { batchId: batch.id, done: 1, total: 1, etaSeconds: 0, waitingUntil: null });
  } finally {
    sandbox.faults.clear();
    await host.stop();
    db.close();
  }
});

test('only a definite answer flags a row; a service that keeps failing stops the check and flags none', { timeout: 120_000 }, async () => {
  const db = openDatabase(join(dir, 'definite.db'));
  const host = await createBatchHost({ db, baseUrl: sandbox.baseUrl, serviceKey: 'sandbox', timeoutMs: 2_000, maxRetries: 0 });
  try {
    await host.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
    const csv = [
      'orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,quantity',
      'D-1,Ada,Lovelace,Main Street 1,1015 CJ,Amsterdam,NL,ada@example.com,Cube-binary.stl,1',
      // No carrier serves Antarctica: the service's definite word, on this row alone.
      'D-2,Ada,Lovelace,Base 1,0000,McMurdo,AQ,ada@example.com,Cube-binary.stl,1',
    ].join('\n');
    const batch = await host.batches.import({ bytes: new TextEncoder().encode(csv), fileName: 'definite.csv', projectId });
    assert.deepEqual((await host.batches.errors(batch.id, ['error'])).map((e) => [e.row, e.field]), [[3, 'shippingMethod']]);
    assert.equal(batch.shippingUnchecked, null);

    sandbox.faults.set({ kind: 'status-5xx', path: '/Shipping/GetShippingMethods', status: 503 });
    const failing = await host.batches.validate(batch.id);
    assert.equal(failing.rowsWithErrors, 0, 'no row is flagged for the service failing (nor judged by it)');
    assert.match(failing.shippingUnchecked ?? '', /./);
    await assert.rejects(host.batches.send(batch.id, { skipInvalid: true }), (error: Error & { code?: string }) => error.code === 'INTERNAL_ERROR');
    sandbox.faults.clear();
    const back = await host.batches.validate(batch.id);
    assert.equal(back.shippingUnchecked, null);
    assert.equal(back.sendable, 1);
  } finally {
    sandbox.faults.clear();
    await host.stop();
    db.close();
  }
});
