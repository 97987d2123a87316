// A batch whose host process is killed (SIGKILL) at random moments, during import, enqueueing
// and sending, and started again each time: the sandbox's own records must show every order of
// the file placed exactly once.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createBatchHost } from '../batch-host.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { startBatchSandbox, stopBatchSandbox } from './batch-sandbox.ts';

const ORDERS = 400;
let sandbox: TestSandbox;
let projectId: string;
let dir: string;

before(async () => {
  // Orders held to 50 a second by the sandbox's own limit (answered with 429s, as the service would): the
  // batch then takes 8 s or more however fast the machine, and the six kills below land in it. Unpaced, a
  // fast machine sent it before the third.
  ({ sandbox, projectId, dir } = await startBatchSandbox('batch-kill-', ['Cube-binary.stl', 'Star-binary.stl'], { 'Order/CreateOrder': { limit: 50, windowSeconds: 1 } }));
});
after(() => stopBatchSandbox({ sandbox, projectId, dir }));

/** Half the rows carry a reference, half get one derived from the file; every tenth order has two models. */
function file(): { csv: string; orderRows: number } {
  const lines = ['orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,quantity'];
  for (let i = 0; i < ORDERS; i++) {
    const reference = i % 2 ? '' : `K-${i}`;
    lines.push(`${reference},Ada,Lovelace,Keizersgracht ${i + 1},1015 CJ,Amsterdam,NL,ada${i}@example.com,Cube-binary.stl,1`);
    if (reference && i % 10 === 0) lines.push(`${reference},,,,,,,,Star-binary.stl,2`);
  }
  return { csv: lines.join('\n'), orderRows: lines.length - 1 };
}

function runWorker(dbPath: string, csvPath: string, killAfterMs: number | null): Promise<{ output: string; killed: boolean }> {
  const worker = join(import.meta.dirname, 'fixtures', 'batch-worker.ts');
  const child = spawn(process.execPath, [worker, dbPath, sandbox.baseUrl, DEMO_EMAIL, sandbox.demoAccount.password, csvPath, projectId], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  let killed = false;
  child.stdout.on('data', (chunk) => (output += chunk));
  const timer = killAfterMs === null ? null : setTimeout(() => {
    killed = child.kill('SIGKILL');
  }, killAfterMs);
  return new Promise((resolve) => child.on('exit', () => {
    if (timer) clearTimeout(timer);
    resolve({ output, killed: killed && !output.includes('settled') });
  }));
}

test('killed mid-batch again and again and resumed, a batch ends with 0 lost and 0 duplicated', { timeout: 120_000 }, async () => {
  const { csv } = file();
  const csvPath = join(dir, 'orders.csv');
  writeFileSync(csvPath, csv);
  const dbPath = join(dir, 'printdesk.db');
  sandbox.faults.set([
    { kind: 'reset-after', path: '/Order/CreateOrder', probability: 0.05, seed: 11 },
    // Every order takes a while, so the kills land mid-batch however fast the machine is.
    { kind: 'latency', path: '/Order/CreateOrder', ms: 40 },
  ]);
  let kills = 0;
  let random = 7;
  const next = () => (random = (random * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  try {
    for (let run = 0; run < 30; run++) {
      const { output, killed } = await runWorker(dbPath, csvPath, run < 6 ? 300 + Math.floor(next() * 1_200) : null);
      if (killed) kills++;
      if (output.includes('settled')) break;
    }
  } finally {
    sandbox.faults.clear();
  }
  assert.ok(kills >= 3, `the host should have been killed a few times (was ${kills})`);

  const counts = new Map<string, number>();
  for (const order of await sandbox.operator.listOrders({ projectId })) counts.set(order.orderReference, (counts.get(order.orderReference) ?? 0) + 1);
  const db = openDatabase(dbPath);
  const host = await createBatchHost({ db, baseUrl: sandbox.baseUrl });
  await host.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  const batches = await host.batches.list(projectId);
  assert.equal(batches.length, 1, 'one batch, however often the import was interrupted');
  const report = await host.batches.report(batches[0].id);
  const references = new Set(report.map((r) => r.reference));
  assert.equal(references.size, ORDERS);
  let lost = 0;
  let doubled = 0;
  for (const reference of references) {
    const n = counts.get(reference) ?? 0;
    if (n === 0) lost++;
    if (n > 1) doubled++;
  }
  assert.deepEqual({ lost, doubled, others: counts.size - ORDERS }, { lost: 0, doubled: 0, others: 0 });
  assert.ok(report.every((r) => r.outcome === 'placed' && r.orderId), 'the report shows every row placed with its order id');
  await host.stop();
  db.close();
});
