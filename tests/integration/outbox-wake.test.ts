// When the outbox wakes: an order that comes due is sent at its time whatever else is under way, a wake
// that arrives during a claim round is not lost, and a send left by a workstation that stopped is taken
// over within about one lease. Each against the real store, on the local file and on a team's PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { HostError } from '../../electron/services/api/errors.ts';
import { ShippingMethods } from '../../electron/services/api/schemas.ts';
import { createOrders } from '../../electron/services/orders/index.ts';
import { createOrdersStore } from '../../electron/services/orders/store.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import type { DraftFields, DraftState } from '../../electron/contract/schemas/orders.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';
import { sandboxWithModel } from './orders-sandbox.ts';
import { forEachEngine } from '../sql-engines.ts';

let sandbox: TestSandbox;
let projectId: string;
let modelId: string;
let client: ApiClient;

before(async () => {
  ({ sandbox, projectId, modelId, client } = await sandboxWithModel(10_000));
});
after(() => sandbox.dispose());

const account = () => `${sandbox.baseUrl} ${DEMO_EMAIL}`;
/** Far longer than any wake should take, even on a loaded machine: a lost wake waits for ever (or a minute). */
const WITHIN_MS = 20_000;

async function fields(): Promise<DraftFields> {
  const quote = await client.call('getShippingMethods', ShippingMethods, { body: { country: 'NL', models: [{ modelId, quantity: 1 }] } });
  return {
    recipient: { firstName: 'Ada', lastName: 'Lovelace', streetAddress: 'Keizersgracht 1', postal: '1015 CJ', city: 'Amsterdam', country: 'NL', countryState: '', phoneNumber: '+31 20 123 4567', email: 'ada@example.com' },
    models: [{ modelId, quantity: 1 }],
    shippingMethod: { ...quote.methods[0], minDeliveryTime: null, maxDeliveryTime: null, estimatedDeliveryTime: null },
    orderContent: { ConfigIds: [], ExternalConfigIds: [], StockIds: [] },
  };
}

/** Resolves once `read` gives `state`; rejects after WITHIN_MS with what it gave last. */
async function reaches(read: () => Promise<DraftState | undefined>, state: DraftState, what: string): Promise<void> {
  const until = Date.now() + WITHIN_MS;
  let last: DraftState | undefined;
  while ((last = await read()) !== state) {
    if (Date.now() > until) assert.fail(`${what}: still ${last} after ${WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A gate: `wait` resolves once `open` is called. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open };
}

/** The client, with CreateOrder for `reference` answered by `instead` first (a hang, a refusal). */
function clientWith(instead: Map<string, () => Promise<void>>): ApiClient {
  return {
    ...client,
    call: (async (name: string, schema: unknown, options?: { body?: { orderReference?: string } }) => {
      const reference = name === 'createOrder' ? options?.body?.orderReference : undefined;
      const first = reference === undefined ? undefined : instead.get(reference);
      if (first) {
        instead.delete(reference as string);
        await first();
      }
      return (client.call as (...args: unknown[]) => Promise<unknown>)(name, schema, options);
    }) as ApiClient['call'],
  };
}

forEachEngine((engine) => {
  test('an order whose Retry-After ends while another send is still awaited goes at its time, not after that send', async () => {
    const instead = new Map<string, () => Promise<void>>();
    const orders = await createOrders({ db: openDatabase(':memory:'), store: await engine.open(), client: () => clientWith(instead), account, onDraft: () => undefined, onPlaced: () => undefined });
    const slow = await orders.save(projectId, await fields());
    const limited = await orders.save(projectId, await fields());
    const answer = gate();
    // The slow one's answer takes as long as this test wants; the other is answered "come back in a second".
    instead.set(slow.orderReference, answer.wait);
    instead.set(limited.orderReference, async () => {
      throw new HostError('RATE_LIMITED', 'Too many requests', { status: 429, retryAfterSeconds: 1 });
    });
    try {
      await orders.place(slow.id);
      await orders.place(limited.id);
      await reaches(async () => (await orders.get(limited.id)).state, 'placed', 'the order told to come back in a second');
      assert.equal((await orders.get(slow.id)).state, 'sending', 'the other send is still awaited');
      answer.open();
      await orders.outbox.drained();
      assert.equal((await orders.get(slow.id)).state, 'placed');
    } finally {
      answer.open();
      await orders.stop();
    }
  });

  test('an order queued while a claim round runs is taken by that round, or by the one it asks for', async () => {
    const orders = await createOrders({ db: openDatabase(':memory:'), store: await engine.open(), client: () => client, account, onDraft: () => undefined, onPlaced: () => undefined });
    const first = await orders.save(projectId, await fields());
    const late = await orders.save(projectId, await fields());
    await orders.place(first.id);
    await orders.outbox.drained();
    // The next round's claim finds nothing, and its answer is held back until `late` is queued and the
    // outbox kicked (as placing does), so that the kick lands in the middle of the round.
    const claimNext = orders.store.claimNext;
    const inRound = gate();
    const carryOn = gate();
    let held = false;
    orders.store.claimNext = async (...args) => {
      const taken = await claimNext(...args);
      if (!taken && !held) {
        held = true;
        inRound.open();
        await carryOn.wait();
      }
      return taken;
    };
    const round = orders.outbox.kick();
    await inRound.wait();
    await orders.store.transition(late.id, ['draft'], 'queued', { nextAttemptAt: 0 });
    const kicked = orders.outbox.kick();
    carryOn.open();
    await Promise.all([round, kicked]);
    await reaches(async () => (await orders.get(late.id)).state, 'placed', 'the order queued during the round');
    orders.store.claimNext = claimNext;
    await orders.stop();
  });

  test("a send whose workstation stopped is taken over by another once its lease lapses, within half a lease more", async () => {
    const shared = await engine.open();
    // bench-1 runs with a 1 s lease (its sweep every half lease); bench-2 claims a send, then stops for good.
    const orders = await createOrders({ db: openDatabase(':memory:'), store: shared, identity: { workstation: 'bench-1', actor: () => null, leaseMs: 1_000 }, client: () => client, account, onDraft: () => undefined, onPlaced: () => undefined });
    await orders.start();
    const gone = await createOrdersStore(await engine.openAgain(shared), undefined, { workstation: 'bench-2', actor: () => null, leaseMs: 1_000 });
    orders.outbox.pause();
    const draft = await orders.save(projectId, await fields());
    await gone.transition(draft.id, ['draft'], 'queued', { nextAttemptAt: 0 });
    const claimed = await gone.claimNext(Date.now(), account(), [], Date.now() + 1_000);
    assert.equal(claimed?.id, draft.id);
    orders.outbox.resume();
    try {
      // Not sent twice at once: bench-1 leaves it while the lease runs (its start's sweep has been and gone).
      assert.equal((await orders.get(draft.id)).state, 'sending');
      await reaches(async () => (await orders.get(draft.id)).state, 'placed', "the stopped workstation's send");
      const placed = await sandbox.operator.listOrders({ projectId });
      assert.equal(placed.filter((o) => o.orderReference === draft.orderReference).length, 1);
    } finally {
      await orders.stop();
    }
  });
});
