// Orders placed offline, as a mail client's outbox holds mail: the host as the app builds it, on a real
// sandbox, with Work offline or a fault keeping the service away. The sandbox's own records say each
// order was placed once.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { ConnectivityState, OutboxEmptied, Result } from '../../electron/contract/channels.ts';
import { createHost } from '../../electron/services/host.ts';
import { startSandbox } from '../../sandbox/server.ts';
import type { Draft, DraftFields, Quote, SeenQuote, ShippingRule } from '../../electron/contract/schemas/orders.ts';
import type { Settings } from '../../electron/contract/schemas/preferences.ts';
import { createMemoryVault } from '../../electron/services/session/token-vault.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { createMemoryStore } from '../../electron/services/storage/memory-store.ts';
import { corpusFile } from '../corpus.ts';

const value = <T>(result: Result<unknown>): T => {
  assert.ok(result.ok, JSON.stringify(result));
  return result.value as T;
};

/** The host on a sandbox, signed in to the demo project with one model; what it notified and emitted is kept. */
async function signedInHost(t: TestContext) {
  const dataDir = mkdtempSync(join(tmpdir(), 'outbox-offline-'));
  const sandbox = await startSandbox({ dataDir, quiet: true });
  const notified: string[] = [];
  const host = createHost({
    mode: 'electron', version: 't', platform: 'linux', store: createMemoryStore(), vault: createMemoryVault('t'),
    db: openDatabase(':memory:'), sandbox: { baseUrl: sandbox.baseUrl, demoAccount: sandbox.demoAccount, running: sandbox.running }, timeoutMs: 2_000,
    notifier: { notify: (title, body) => notified.push(`${title}: ${body}`) },
  });
  t.after(async () => {
    await host.dispose();
    await sandbox.close();
  });
  const emptied: OutboxEmptied[] = [];
  const reasons: (string | null)[] = [];
  host.subscribe('outbox:emptied', (summary) => emptied.push(summary));
  host.subscribe('connectivity:changed', (state) => reasons.push(state.reason));
  value(await host.invoke('session:signIn', sandbox.demoAccount));
  const { projectId } = (await sandbox.operator.listProjects())[0];
  value(await host.invoke('projects:select', { projectId }));
  const { modelId } = await sandbox.operator.addModel(projectId, corpusFile('stl', 'Cube-binary.stl'), { name: 'Cube' });
  const fields = (shipping: Pick<DraftFields, 'shippingMethod' | 'shippingRule'>): DraftFields => ({
    recipient: { firstName: 'Ada', lastName: 'Lovelace', streetAddress: 'Keizersgracht 1', postal: '1015 CJ', city: 'Amsterdam', country: 'NL', countryState: '', phoneNumber: '', email: 'ada@example.com' },
    models: [{ modelId, quantity: 2, name: 'Cube' }],
    orderContent: { ConfigIds: [], ExternalConfigIds: [], StockIds: [] },
    ...shipping,
  });
  /** Saves and places an order; its state once the call returns. */
  const place = async (shipping: Pick<DraftFields, 'shippingMethod' | 'shippingRule'>) => {
    const draft = value<Draft>(await host.invoke('drafts:save', { projectId, fields: fields(shipping) }));
    return value<Draft>(await host.invoke('outbox:place', { id: draft.id }));
  };
  const draft = async (id: string) => value<Draft>(await host.invoke('drafts:get', { id }));
  const until = async (id: string, state: Draft['state']) => {
    for (let i = 0; i < 600; i++) {
      const now = await draft(id);
      if (now.state === state) return now;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${id} never became ${state}: ${JSON.stringify(await draft(id))}`);
  };
  const ordersFor = async (reference: string) => (await sandbox.operator.listOrders({ projectId })).filter((o) => o.orderReference === reference);
  return { sandbox, host, projectId, modelId, notified, emptied, reasons, place, draft, until, ordersFor };
}

test('working offline, no call leaves; a quote seen before stands in, an order by rule waits, and is placed once when switched back', async (t) => {
  const { sandbox, host, modelId, notified, emptied, reasons, place, until, ordersFor } = await signedInHost(t);
  // A quote seen while online: kept for this country and parcel.
  const online = value<Quote>(await host.invoke('quotes:get', { country: 'NL', models: [{ modelId, quantity: 2, name: 'Cube' }] }));
  assert.equal(online.offline, undefined);
  const cheapest = [...online.methods].sort((a, b) => a.price - b.price)[0];

  assert.equal(value<Settings>(await host.invoke('settings:update', { workOffline: true })).workOffline, true);
  assert.deepEqual(value<ConnectivityState>(await host.invoke('connectivity:get', undefined)), { online: false, reason: 'working-offline' });
  // Every request that reaches the sandbox from now on is counted.
  const counter = sandbox.faults.add({ kind: 'latency', ms: 0 });
  const kept = value<Quote>(await host.invoke('quotes:get', { country: 'nld', models: [{ modelId, quantity: 2 }] }));
  assert.equal(kept.offline, true);
  assert.equal(kept.quotedAt, online.quotedAt);
  const seen = value<SeenQuote[]>(await host.invoke('quotes:seen', { country: 'nld' }));
  assert.equal(seen[0].request.models?.[0].name, 'Cube', 'what the quote was for is kept, for the view to name');
  const unseen = await host.invoke('quotes:get', { country: 'DE', models: [{ modelId, quantity: 2 }] });
  assert.ok(!unseen.ok && unseen.error.details?.reason === 'working-offline', JSON.stringify(unseen));

  const rule: ShippingRule = { choice: { kind: 'rule', rule: 'cheapest' }, ceiling: cheapest.price, seenAt: online.quotedAt };
  const queued = await place({ shippingMethod: null, shippingRule: rule });
  assert.equal(queued.state, 'queued');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(sandbox.faults.list().find((f) => f.id === counter.id)?.hits, 0, 'no call to the service while working offline');
  assert.equal((await ordersFor(queued.orderReference)).length, 0);

  value(await host.invoke('settings:update', { workOffline: false }));
  const placed = await until(queued.id, 'placed');
  assert.equal(placed.shippingMethod?.shippingMethodId, cheapest.shippingMethodId, 'the rule picked the cheapest method offered when it was sent');
  const records = await ordersFor(queued.orderReference);
  assert.equal(records.length, 1);
  assert.equal(records[0].shippingMethod, cheapest.shippingMethodId);
  assert.deepEqual(emptied, [{ placed: 1, needAttention: 0 }]);
  assert.deepEqual(notified, ['1 order placed: The Outbox sent the orders that waited for the service.']);
  assert.deepEqual(reasons, ['working-offline', null]);
});

test('a price above the ceiling holds the order with the old and new price; a rule with no price seen waits for consent; both go once accepted', async (t) => {
  const { host, place, until, ordersFor } = await signedInHost(t);
  value(await host.invoke('settings:update', { workOffline: true }));
  const tooLow = await place({ shippingMethod: null, shippingRule: { choice: { kind: 'code', carrier: 'dhl', method: 'parcel' }, ceiling: 1, seenAt: null } });
  const unpriced = await place({ shippingMethod: null, shippingRule: { choice: { kind: 'rule', rule: 'fastest' }, ceiling: null, seenAt: null } });
  value(await host.invoke('settings:update', { workOffline: false }));

  const over = await until(tooLow.id, 'needs-attention');
  assert.equal(over.problem?.kind, 'price-changed');
  assert.equal(over.problem?.before?.price, 1);
  assert.equal(over.problem?.after?.carrier, 'DHL');
  assert.ok((over.problem?.after?.price ?? 0) > 1);
  const consent = await until(unpriced.id, 'needs-attention');
  assert.equal(consent.problem?.kind, 'price-changed');
  assert.equal(consent.problem?.before, null);
  assert.match(consent.problem?.message ?? '', /No price had been seen for “fastest”/);
  assert.equal((await ordersFor(tooLow.orderReference)).length + (await ordersFor(unpriced.orderReference)).length, 0, 'nothing placed at a price not agreed to');

  for (const held of [over, consent]) {
    value(await host.invoke('outbox:acceptChanges', { id: held.id }));
    const placed = await until(held.id, 'placed');
    assert.equal(placed.shippingRule, null, 'the method at the price accepted, not the rule, is what it went with');
    assert.equal((await ordersFor(held.orderReference)).length, 1);
  }
});

test('a price lower than the one seen places the order at the lower price', async (t) => {
  const { host, modelId, place, until } = await signedInHost(t);
  const quote = value<Quote>(await host.invoke('quotes:get', { country: 'NL', models: [{ modelId, quantity: 2 }] }));
  const method = { ...quote.methods[0], price: quote.methods[0].price + 500 };
  const placed = await until((await place({ shippingMethod: method, shippingRule: null })).id, 'placed');
  assert.equal(placed.shippingMethod?.price, quote.methods[0].price);
});

test('the service out of reach (the sandbox running, but its connections cut): offline as "unreachable", and what waited is placed once it answers', async (t) => {
  const { sandbox, host, modelId, notified, emptied, reasons, place, until, ordersFor } = await signedInHost(t);
  const quote = value<Quote>(await host.invoke('quotes:get', { country: 'NL', models: [{ modelId, quantity: 2 }] }));
  sandbox.faults.set({ kind: 'reset-before' });
  const failed = await host.invoke('quotes:get', { country: 'NL', models: [{ modelId, quantity: 3 }] });
  assert.ok(!failed.ok && failed.error.details?.reason === 'unreachable', JSON.stringify(failed));
  assert.deepEqual(value<ConnectivityState>(await host.invoke('connectivity:get', undefined)), { online: false, reason: 'unreachable' });
  const orders = [await place({ shippingMethod: quote.methods[0], shippingRule: null }), await place({ shippingMethod: null, shippingRule: { choice: { kind: 'rule', rule: 'cheapest' }, ceiling: 1_000_000, seenAt: null } })];
  await new Promise((resolve) => setTimeout(resolve, 300));
  sandbox.faults.clear();
  for (const order of orders) {
    await until(order.id, 'placed');
    assert.equal((await ordersFor(order.orderReference)).length, 1);
  }
  assert.deepEqual(emptied, [{ placed: 2, needAttention: 0 }]);
  assert.equal(notified.length, 1);
  assert.match(notified[0], /^2 orders placed/);
  assert.deepEqual(reasons, ['unreachable', null]);
});

test('notifications switched off: the page is still told, the OS is not', async (t) => {
  const { host, modelId, notified, emptied, place, until } = await signedInHost(t);
  const quote = value<Quote>(await host.invoke('quotes:get', { country: 'NL', models: [{ modelId, quantity: 2 }] }));
  value(await host.invoke('settings:update', { notifications: false, workOffline: true }));
  const order = await place({ shippingMethod: quote.methods[0], shippingRule: null });
  value(await host.invoke('settings:update', { workOffline: false }));
  await until(order.id, 'placed');
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(emptied, [{ placed: 1, needAttention: 0 }]);
  assert.deepEqual(notified, []);
});

test('Work offline chosen when the app last ran holds it from the start: nothing is sent until it is switched off', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'outbox-offline-'));
  const sandbox = await startSandbox({ dataDir, quiet: true });
  const host = createHost({
    mode: 'browser', version: 't', platform: 'linux', store: createMemoryStore({ settings: { workOffline: true, theme: 'dark' } }), vault: createMemoryVault('t'),
    db: openDatabase(':memory:'), sandbox: { baseUrl: sandbox.baseUrl, demoAccount: sandbox.demoAccount, running: sandbox.running }, timeoutMs: 2_000,
  });
  t.after(async () => {
    await host.dispose();
    await sandbox.close();
  });
  assert.deepEqual(value<ConnectivityState>(await host.invoke('connectivity:get', undefined)), { online: false, reason: 'working-offline' });
  assert.equal(value<Settings>(await host.invoke('settings:get', undefined)).theme, 'dark');
  const signIn = await host.invoke('session:signIn', sandbox.demoAccount);
  assert.ok(!signIn.ok && signIn.error.details?.reason === 'working-offline', JSON.stringify(signIn));
  value(await host.invoke('settings:update', { workOffline: false }));
  assert.equal(value<{ status: string }>(await host.invoke('session:signIn', sandbox.demoAccount)).status, 'signed-in');
});
