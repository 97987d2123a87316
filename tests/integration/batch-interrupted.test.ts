// A batch whose sending stops halfway through queueing its orders (the app quit): the review says how
// many are on their way, Send queues only the rest, and the service ends with each order once.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createBatchHost } from '../batch-host.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { sendAction } from '../../renderer/lib/batch-send.ts';
import { startBatchSandbox, stopBatchSandbox } from './batch-sandbox.ts';

const ORDERS = 1_100;
let sandbox: TestSandbox;
let projectId: string;
let dir: string;

before(async () => {
  ({ sandbox, projectId, dir } = await startBatchSandbox('batch-interrupted-'));
});
after(() => stopBatchSandbox({ sandbox, projectId, dir }));

function file(): Uint8Array {
  const lines = ['orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,quantity'];
  for (let i = 0; i < ORDERS; i++) lines.push(`Q-${i},Ada,Lovelace,Keizersgracht ${i + 1},1015 CJ,Amsterdam,NL,ada@example.com,Cube-binary.stl,1`);
  return new TextEncoder().encode(lines.join('\n'));
}

async function openHost(db: ReturnType<typeof openDatabase>) {
  const host = await createBatchHost({ db, baseUrl: sandbox.baseUrl, serviceKey: 'sandbox', timeoutMs: 5_000, tickMs: 50 });
  await host.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  return host;
}

test('stopped while queueing, a batch says how many orders are on their way, and sending again queues only the rest', { timeout: 120_000 }, async () => {
  const db = openDatabase(join(dir, 'printdesk.db'));
  const first = await openHost(db);
  const batch = await first.batches.import({ bytes: file(), fileName: 'big.csv', projectId });
  const sending = first.batches.send(batch.id);
  // Stop as soon as the first chunk is queued: the enqueue ends at its next chunk.
  while ((await first.batches.get(batch.id)).queued === 0) await new Promise((resolve) => setImmediate(resolve));
  await first.stop();
  await sending;

  const stopped = await first.batches.get(batch.id);
  assert.equal(stopped.state, 'draft');
  assert.ok(stopped.sentAt, 'marked sent: its rows can no longer change');
  assert.ok(stopped.queued > 0 && stopped.queued < ORDERS, `part of the batch queued (${stopped.queued})`);
  const action = sendAction(stopped);
  assert.equal(action.label, `Send the other ${ORDERS - stopped.queued} orders`);
  assert.match(action.interrupted ?? '', new RegExp(`after ${stopped.queued} orders of ${ORDERS} had been queued`));

  const second = await openHost(db);
  await second.start();
  try {
    const progress = await second.batches.send(batch.id);
    assert.equal(progress.total, ORDERS);
    const done = await second.batches.settled(batch.id);
    assert.deepEqual({ state: done.state, done: done.done, failed: done.failed }, { state: 'done', done: ORDERS, failed: 0 });
    const placed = await sandbox.operator.listOrders({ projectId });
    assert.equal(new Set(placed.map((o) => o.orderReference)).size, ORDERS);
    assert.equal(placed.length, ORDERS, 'each order placed once');
    assert.equal(sendAction(await second.batches.get(batch.id)).interrupted, null);
  } finally {
    await second.stop();
    db.close();
  }
});
