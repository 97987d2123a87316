// Exactly once: orders go through faults and a host killed at random moments, and the sandbox's
// own records must show each order placed once, none lost.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, before, test } from 'node:test';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { createOrders, type Orders } from '../../electron/services/orders/index.ts';
import { createOrdersStore } from '../../electron/services/orders/store.ts';
import { DB_FILE } from '../../sandbox/db/open.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';
import type { Draft, DraftFields } from '../../electron/contract/schemas/orders.ts';
import { openDatabase, type Db } from '../../electron/services/storage/database.ts';
import { sandboxWithModel } from './orders-sandbox.ts';
import { forEachEngine, type SqlEngine } from '../sql-engines.ts';

let sandbox: TestSandbox;
let projectId: string;
let modelId: string;
let client: ApiClient;

before(async () => {
  ({ sandbox, projectId, modelId, client } = await sandboxWithModel(1_000));
});
after(() => sandbox.dispose());

const account = () => `${sandbox.baseUrl} ${DEMO_EMAIL}`;

/** The outbox on `db` alone (the local file's store), or with its drafts in `engine`'s store (a team's). */
async function ordersOnStore(db: Db, events: { placed: Draft[] } = { placed: [] }, engine?: SqlEngine): Promise<Orders> {
  const store = engine ? await engine.open() : undefined;
  return createOrders({ db, store, client: () => client, account, onDraft: () => undefined, onPlaced: (d) => events.placed.push(d) });
}

async function fields(country = 'NL'): Promise<DraftFields> {
  const quote = await client.call('getShippingMethods', (await import('../../electron/services/api/schemas.ts')).ShippingMethods, {
    body: { country, models: [{ modelId, quantity: 1 }] },
  });
  return {
    recipient: { firstName: 'Ada', lastName: 'Lovelace', streetAddress: 'Keizersgracht 1', postal: '1015 CJ', city: 'Amsterdam', country, countryState: '', phoneNumber: '+31 20 123 4567', email: 'ada@example.com' },
    models: [{ modelId, quantity: 1 }],
    shippingMethod: { ...quote.methods[0], minDeliveryTime: null, maxDeliveryTime: null, estimatedDeliveryTime: null },
    orderContent: { ConfigIds: [], ExternalConfigIds: [], StockIds: [] },
  };
}

async function serverCountsByReference(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const order of await sandbox.operator.listOrders({ projectId })) counts.set(order.orderReference, (counts.get(order.orderReference) ?? 0) + 1);
  return counts;
}

// The same suite on the local file's store and on a team's PostgreSQL (tests/sql-engines.ts).
forEachEngine((engine) => {
  const ordersOn = (db: Db, events?: { placed: Draft[] }) => ordersOnStore(db, events, engine);

  test('a draft keeps its reference; placing it sends it once and records the service order', async () => {
    const events = { placed: [] as Draft[] };
    const orders = await ordersOn(openDatabase(':memory:'), events);
    const draft = await orders.save(projectId, await fields());
    assert.match(draft.orderReference, /^PD-/);
    const edited = await orders.save(projectId, { ...draft, recipient: { ...draft.recipient, city: 'Utrecht', postal: '3511 AB' } }, draft.id);
    assert.equal(edited.orderReference, draft.orderReference);
    // The reply is the draft as it is once the outbox took it: a view applying it after the "sending"
    // event must not fall back to "queued" (a quick service may even have placed it by then).
    assert.notEqual((await orders.place(draft.id)).state, 'queued');
    await orders.outbox.drained();
    const placed = await orders.get(draft.id);
    assert.equal(placed.state, 'placed');
    assert.ok(placed.order?.orderId);
    assert.equal(events.placed.length, 1);
    assert.equal((await serverCountsByReference()).get(draft.orderReference), 1);
    assert.equal((await orders.addressBook())[0].city, 'Utrecht');
  });

  test('placed orders follow the service: status refreshed, cancellation', async () => {
    const orders = await ordersOn(openDatabase(':memory:'));
    const draft = await orders.save(projectId, await fields());
    await orders.place(draft.id);
    await orders.outbox.drained();
    const orderId = (await orders.get(draft.id)).order?.orderId;
    assert.ok(orderId);
    await sandbox.operator.advanceOrder(orderId, 'in_production');
    const refreshed = (await orders.refresh(projectId)).find((d) => d.id === draft.id);
    assert.equal(refreshed?.order?.status, 'in_production');
    assert.equal((await orders.cancel(draft.id)).order?.status, 'cancelled');
  });

  test('queued orders of one account wait while another account is signed in, and go when it is back', async () => {
    const db = openDatabase(':memory:');
    let signedIn: string | null = account();
    const orders = await createOrders({ db, client: () => client, account: () => signedIn, onDraft: () => undefined, onPlaced: () => undefined });
    const draft = await orders.save(projectId, await fields());
    // Queued while the service was away; then the account signs out and a colleague signs in.
    orders.outbox.pause();
    await orders.place(draft.id);
    signedIn = null;
    orders.outbox.resume();
    signedIn = `${sandbox.baseUrl} colleague@printdesk.test`;
    orders.outbox.kick();
    await orders.outbox.drained();
    assert.equal((await orders.store.get(draft.id))?.state, 'queued', 'not sent under the colleague\'s sign-in');
    assert.equal((await serverCountsByReference()).get(draft.orderReference), undefined);
    signedIn = account();
    orders.outbox.kick();
    await orders.outbox.drained();
    assert.equal((await orders.get(draft.id)).state, 'placed');
    assert.equal((await serverCountsByReference()).get(draft.orderReference), 1);
  });

  test('an order waiting out an hour-long Retry-After goes when the user says "Send now", and once', async () => {
    const orders = await ordersOn(openDatabase(':memory:'));
    const draft = await orders.save(projectId, await fields());
    sandbox.faults.set({ kind: 'rate-limit', path: '/Order/CreateOrder', count: 1, retryAfterSeconds: 3600 });
    try {
      await orders.place(draft.id);
      // Not drained: the outbox holds it for an hour. Its answer is written once it is queued again.
      while ((await orders.get(draft.id)).state !== 'queued') await new Promise((resolve) => setTimeout(resolve, 10));
      const waiting = await orders.get(draft.id);
      assert.ok(Date.parse(waiting.nextAttemptAt ?? '') > Date.now() + 3_000_000, 'the service asked for an hour');
      assert.equal((await orders.sendNow(draft.id)).nextAttemptAt, null);
      await orders.outbox.drained();
      assert.equal((await orders.get(draft.id)).state, 'placed');
      assert.equal((await serverCountsByReference()).get(draft.orderReference), 1);
      // Nothing to send now once it is placed.
      await assert.rejects(orders.sendNow(draft.id), /no longer waiting/);
    } finally {
      sandbox.faults.clear();
    }
  });

  test('a draft whose price changed waits for the user, and goes once accepted', async () => {
    const orders = await ordersOn(openDatabase(':memory:'));
    const base = await fields();
    const draft = await orders.save(projectId, { ...base, shippingMethod: base.shippingMethod && { ...base.shippingMethod, price: 1 } });
    await orders.place(draft.id);
    await orders.outbox.drained();
    const held = await orders.get(draft.id);
    assert.equal(held.state, 'needs-attention');
    assert.equal(held.problem?.kind, 'price-changed');
    assert.equal(held.problem?.after?.price, base.shippingMethod?.price);
    assert.equal((await serverCountsByReference()).get(draft.orderReference), undefined, 'nothing is sent before the user agrees');
    await orders.acceptChanges(draft.id);
    await orders.outbox.drained();
    assert.equal((await orders.get(draft.id)).state, 'placed');
  });

  test('a price raised at the service a moment after the quote is caught before a single order is placed', async () => {
    const orders = await ordersOn(openDatabase(':memory:'));
    const base = await fields();
    // The form's quote is cached; then the model gets heavier at the service, so its shipping costs more.
    await orders.quote({ country: 'NL', models: base.models });
    const service = new Database(join(sandbox.dataDir, DB_FILE));
    try {
      service.prepare('UPDATE models SET weight_grams = weight_grams + 5000 WHERE model_id = ?').run(modelId);
      const draft = await orders.save(projectId, base);
      await orders.place(draft.id);
      await orders.outbox.drained();
      const held = await orders.get(draft.id);
      assert.equal(held.problem?.kind, 'price-changed');
      assert.ok((held.problem?.after?.price ?? 0) > (base.shippingMethod?.price ?? 0));
      assert.equal((await serverCountsByReference()).get(draft.orderReference), undefined, 'nothing charged before the user agrees');
    } finally {
      service.prepare('UPDATE models SET weight_grams = weight_grams - 5000 WHERE model_id = ?').run(modelId);
      service.close();
    }
  });

  test('a method no longer offered, and a service rejection, are explained and nothing is placed', async () => {
    const orders = await ordersOn(openDatabase(':memory:'));
    const base = await fields();
    const gone = await orders.save(projectId, { ...base, shippingMethod: base.shippingMethod && { ...base.shippingMethod, shippingMethodId: 999 } });
    await orders.place(gone.id);
    const rejected = await orders.save(projectId, { ...base, models: [{ modelId: '00000000-0000-4000-8000-000000000000', quantity: 1 }] });
    orders.outbox.pause();
    await orders.place(rejected.id);
    orders.outbox.resume();
    await orders.outbox.drained();
    assert.equal((await orders.get(gone.id)).problem?.kind, 'method-gone');
    const refused = await orders.get(rejected.id);
    assert.ok(['rejected', 'needs-attention'].includes(refused.state));
    assert.match(refused.problem?.message ?? '', /does not exist/);
  });

  test('invalid drafts are refused at "Place order" with the fields named', async () => {
    const orders = await ordersOn(openDatabase(':memory:'));
    const base = await fields();
    const draft = await orders.save(projectId, { ...base, recipient: { ...base.recipient, email: 'nope', postal: '' } });
    await assert.rejects(orders.place(draft.id), (error: { details?: { fields?: Record<string, string> } }) => {
      assert.ok(error.details?.fields?.email && error.details.fields.postal);
      return true;
    });
    assert.equal((await orders.get(draft.id)).state, 'draft');
  });

  test('an order whose answer was lost stays in the outbox, unchangeable, until the service is asked: it ends placed once, as the service holds it', async () => {
    const db = openDatabase(':memory:');
    const orders: Orders = await createOrders({
      db,
      client: () => client,
      account,
      onPlaced: () => undefined,
      // Hold the outbox after a lost answer, to look at the draft before it is resent.
      onDraft: (draft) => draft.state === 'queued' && draft.unanswered && orders.outbox.pause(),
    });
    const base = await fields();
    // Every try of the client's own retries is cut: after the service acted on the first one, or before it acted.
    for (const kind of ['reset-after', 'reset-before'] as const) {
      const draft = await orders.save(projectId, base);
      sandbox.faults.set([{ kind, path: '/Order/CreateOrder', count: 20 }]);
      try {
        await orders.place(draft.id);
        while (!(await orders.get(draft.id)).unanswered) await new Promise((resolve) => setTimeout(resolve, 10));
        assert.equal((await orders.get(draft.id)).state, 'queued');
        // The row can say when it is tried again.
        assert.ok(!Number.isNaN(Date.parse((await orders.get(draft.id)).nextAttemptAt ?? '')), 'a time for the next try');
        await assert.rejects(orders.unqueue(draft.id), /may have placed it/);
        await assert.rejects(orders.remove(draft.id), /may have placed it/);
        await assert.rejects(orders.save(projectId, { ...base, recipient: { ...base.recipient, city: 'Utrecht' } }, draft.id), /may have placed it/);
      } finally {
        sandbox.faults.clear();
      }
      orders.outbox.resume();
      await orders.outbox.drained();
      const placed = await orders.get(draft.id);
      assert.deepEqual({ kind, state: placed.state, unanswered: placed.unanswered, city: placed.recipient.city, next: placed.nextAttemptAt }, { kind, state: 'placed', unanswered: false, city: 'Amsterdam', next: null });
      assert.equal((await serverCountsByReference()).get(draft.orderReference), 1, `${kind}: placed once`);
    }
  });

  test('through resets before and after acting, stalls, 5xx and 429, every order is placed exactly once', async () => {
    const orders = await ordersOn(openDatabase(':memory:'));
    const base = await fields();
    const drafts = await Promise.all(Array.from({ length: 150 }, () => orders.save(projectId, base)));
    sandbox.faults.set([
      { kind: 'reset-before', path: '/Order/CreateOrder', probability: 0.1, seed: 1 },
      { kind: 'reset-after', path: '/Order/CreateOrder', probability: 0.1, seed: 2 },
      { kind: 'status-5xx', path: '/Order/CreateOrder', probability: 0.05, seed: 3 },
      { kind: 'rate-limit', path: '/Order/CreateOrder', probability: 0.05, seed: 4, retryAfterSeconds: 0 },
      { kind: 'stall', path: '/Order/CreateOrder', probability: 0.03, seed: 5, ms: 1_500 },
    ]);
    try {
      orders.outbox.setConcurrency(8);
      for (const draft of drafts) await orders.place(draft.id);
      await orders.outbox.drained();
    } finally {
      sandbox.faults.clear();
    }
    const counts = await serverCountsByReference();
    for (const draft of drafts) {
      assert.equal((await orders.get(draft.id)).state, 'placed', `${draft.orderReference} ${(await orders.get(draft.id)).problem?.message}`);
      assert.equal(counts.get(draft.orderReference), 1, draft.orderReference);
    }
  });

  test('stopping with orders on their way waits for their answers, so closing the store loses none and throws nothing', async () => {
    const db = openDatabase(':memory:');
    const orders = await ordersOn(db);
    const base = await fields();
    const drafts = await Promise.all(Array.from({ length: 6 }, () => orders.save(projectId, base)));
    sandbox.faults.set([{ kind: 'latency', path: '/Order/CreateOrder', ms: 300 }]);
    try {
      for (const draft of drafts) await orders.place(draft.id);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const statesOf = async () => (await Promise.all(drafts.map((d) => orders.get(d.id)))).map((d) => d.state);
      assert.ok((await statesOf()).includes('sending'), 'some orders are on their way when stopping');
      await orders.stop();
      const states = await statesOf();
      assert.ok(!states.includes('sending'), `nothing is left half-sent: ${states.join(', ')}`);
      db.close();
    } finally {
      sandbox.faults.clear();
    }
    const counts = await serverCountsByReference();
    for (const draft of drafts) assert.ok((counts.get(draft.orderReference) ?? 0) <= 1, draft.orderReference);
  });

  test("a send still awaited while stopping stays its workstation's: its lease is renewed through the grace", async () => {
    const shared = await engine.open();
    // A lease of 200 ms, renewed every 67 ms, under an answer that takes 800 ms (the client waits 1 s).
    const identity = { workstation: 'bench-1', actor: () => null, leaseMs: 200 };
    const orders = await createOrders({ db: openDatabase(':memory:'), store: shared, identity, client: () => client, account, onDraft: () => undefined, onPlaced: () => undefined });
    const other = await createOrdersStore(await engine.openAgain(shared), undefined, { workstation: 'bench-2', actor: () => null });
    const draft = await orders.save(projectId, await fields());
    sandbox.faults.set([{ kind: 'latency', path: '/Order/CreateOrder', ms: 800 }]);
    try {
      assert.equal((await orders.place(draft.id)).state, 'sending');
      const stopped = orders.stop();
      // Three leases long: unrenewed, the send would be another workstation's by now.
      await new Promise((resolve) => setTimeout(resolve, 600));
      assert.equal(await other.requeueInterrupted(new Set(), () => false), 0, 'not taken over while its answer is awaited');
      await stopped;
    } finally {
      sandbox.faults.clear();
    }
    assert.equal((await orders.get(draft.id)).state, 'placed');
    assert.equal((await serverCountsByReference()).get(draft.orderReference), 1);
  });

  test('two workstations on one store send a queue together through faults: each order placed once', async () => {
    const shared = await engine.open();
    const onBench = async (workstation: string, store: typeof shared) =>
      createOrders({ db: openDatabase(':memory:'), store, identity: { workstation, actor: () => null }, client: () => client, account, onDraft: () => undefined, onPlaced: () => undefined });
    const one = await onBench('bench-1', shared);
    const two = await onBench('bench-2', await engine.openAgain(shared));
    one.outbox.pause();
    two.outbox.pause();
    const base = await fields();
    const drafts: Draft[] = [];
    for (let i = 0; i < 120; i++) drafts.push(await one.save(projectId, base));
    for (const draft of drafts) await one.place(draft.id);
    sandbox.faults.set([
      { kind: 'reset-after', path: '/Order/CreateOrder', probability: 0.1, seed: 11 },
      { kind: 'status-5xx', path: '/Order/CreateOrder', probability: 0.05, seed: 12 },
      { kind: 'rate-limit', path: '/Order/CreateOrder', probability: 0.05, seed: 13, retryAfterSeconds: 0 },
    ]);
    try {
      one.outbox.resume();
      two.outbox.resume();
      await Promise.all([one.outbox.drained(), two.outbox.drained()]);
    } finally {
      sandbox.faults.clear();
      await Promise.all([one.stop(), two.stop()]);
    }
    const counts = await serverCountsByReference();
    const states = await Promise.all(drafts.map(async (d) => (await one.get(d.id)).state));
    assert.deepEqual([...new Set(states)], ['placed']);
    assert.deepEqual(drafts.filter((d) => counts.get(d.orderReference) !== 1).map((d) => d.orderReference), [], 'each placed exactly once at the service');
  });
});

test('with the host killed at random moments and restarted, 1,000 orders end placed exactly once', { timeout: 240_000 }, async () => {
  const dbPath = join(mkdtempSync(join(tmpdir(), 'outbox-kill-')), 'printdesk.db');
  const db = openDatabase(dbPath);
  const orders = await ordersOnStore(db);
  orders.outbox.pause();
  const base = await fields('DE');
  const drafts = await Promise.all(Array.from({ length: 1_000 }, () => orders.save(projectId, { ...base, recipient: { ...base.recipient, postal: '10115', city: 'Berlin', country: 'DE' } })));
  for (const draft of drafts) await orders.place(draft.id);
  db.close();
  sandbox.faults.set([
    { kind: 'reset-after', path: '/Order/CreateOrder', probability: 0.05, seed: 7 },
    // Every order takes a while, so the kills land mid-run however fast the machine is.
    { kind: 'latency', path: '/Order/CreateOrder', ms: 15 },
  ]);
  let kills = 0;
  let random = 42;
  const nextRandom = () => (random = (random * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  try {
    for (let run = 0; run < 60; run++) {
      const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures', 'outbox-worker.ts'), dbPath, sandbox.baseUrl, DEMO_EMAIL, sandbox.demoAccount.password], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      const killAfter = 150 + Math.floor(nextRandom() * 700);
      const timer = setTimeout(() => {
        kills++;
        child.kill('SIGKILL');
      }, run < 8 ? killAfter : 120_000);
      await exited;
      clearTimeout(timer);
      if (output.includes('drained')) break;
    }
  } finally {
    sandbox.faults.clear();
  }
  assert.ok(kills >= 3, `the host should have been killed a few times (was ${kills})`);
  const check = openDatabase(dbPath);
  const after = await ordersOnStore(check);
  const counts = await serverCountsByReference();
  let lost = 0;
  let doubled = 0;
  for (const draft of drafts) {
    const count = counts.get(draft.orderReference) ?? 0;
    if (count === 0) lost++;
    if (count > 1) doubled++;
    assert.equal((await after.get(draft.id)).state, 'placed');
  }
  await after.stop();
  check.close();
  assert.deepEqual({ lost, doubled }, { lost: 0, doubled: 0 });
});
