// Team mode, live: what one workstation changes shows on another within a second (LISTEN/NOTIFY on the team's
// PostgreSQL), without either asking.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { createOrders } from '../../electron/services/orders/index.ts';
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import type { Sql } from '../../electron/services/storage/sql.ts';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import { dropListeningConnections, postgresEngine } from '../sql-engines.ts';

const ACCOUNT = 'https://print.example/v2 ada@shop.example';

/** What a workstation told its view besides drafts: those deleted, and that it should read its lists again. */
interface Told {
  removed: string[];
  rereads: number;
}

async function workstation(name: string, store: Sql, seen: Draft[], told: Told = { removed: [], rereads: 0 }) {
  const orders = await createOrders({
    db: openDatabase(':memory:'),
    store,
    identity: { workstation: name, actor: () => `ada@shop.example on ${name}` },
    client: () => ({}) as ApiClient,
    account: () => ACCOUNT,
    onDraft: (draft) => seen.push(draft),
    onRemoved: (ids) => told.removed.push(...ids),
    onReread: () => told.rereads++,
    onPlaced: () => undefined,
  });
  orders.outbox.pause();
  await orders.start();
  return orders;
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 5_000;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(check(), `timed out waiting until ${what}`);
}

test('a draft saved on one workstation shows on the other, with who changed it where', async () => {
  const store = await postgresEngine.open();
  const onOne: Draft[] = [];
  const onTwo: Draft[] = [];
  const one = await workstation('bench-1', store, onOne);
  const two = await workstation('bench-2', await postgresEngine.openAgain(store), onTwo);
  try {
    const fields = { recipient: { ...emptyRecipient(), firstName: 'Grace' }, models: [], shippingMethod: null, orderContent: emptyOrderContent() };
    const draft = await one.save('p', fields);
    await until(() => onTwo.some((d) => d.id === draft.id), 'the new draft shows on bench-2');
    await two.save('p', { ...fields, recipient: { ...fields.recipient, city: 'Utrecht' } }, draft.id);
    await until(() => onOne.some((d) => d.id === draft.id && d.recipient.city === 'Utrecht'), 'the edit made on bench-2 shows on bench-1');
    // The same notice reaches its sender too: acted on, it would show bench-2's own edit twice there.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(onTwo.filter((d) => d.id === draft.id && d.recipient.city === 'Utrecht').length, 1, 'its own change is not echoed back');
    assert.deepEqual((await two.history(draft.id)).map((event) => event.actor), ['ada@shop.example on bench-1'], 'who drafted it, and where');
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
});

test('two people saving the same draft: the second save is refused, saying what changed, and goes once made again knowingly', async () => {
  const store = await postgresEngine.open();
  const one = await workstation('bench-1', store, []);
  const two = await workstation('bench-2', await postgresEngine.openAgain(store), []);
  try {
    const fields = { recipient: { ...emptyRecipient(), firstName: 'Grace', city: 'Amsterdam' }, models: [], shippingMethod: null, orderContent: emptyOrderContent() };
    const opened = await one.save('p', fields);
    // Both forms open the draft at the same version; bench-2 saves first.
    await two.save('p', { ...fields, recipient: { ...fields.recipient, city: 'Utrecht' } }, opened.id, opened.version);
    const mine = { ...fields, recipient: { ...fields.recipient, firstName: 'Ada' } };
    const refused = await one.save('p', mine, opened.id, opened.version).then(
      () => assert.fail('a stale save went through'),
      (error: { code: string; message: string; details?: { current?: Draft } }) => error,
    );
    assert.equal(refused.code, 'EDIT_CONFLICT');
    assert.match(refused.message, /city is now “Utrecht” \(yours: “Amsterdam”\)/);
    assert.match(refused.message, /name is now “Grace” \(yours: “Ada”\)/);
    assert.equal((await one.get(opened.id)).recipient.city, 'Utrecht', 'nothing was overwritten');
    const current = refused.details?.current as Draft;
    const saved = await one.save('p', mine, opened.id, current.version);
    assert.equal(saved.recipient.firstName, 'Ada', 'saved again over the version it was shown');
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
});

/** Two workstations on a fresh store, with what the second told its view. */
async function benches() {
  const store = await postgresEngine.open();
  const onTwo: Draft[] = [];
  const toldTwo: Told = { removed: [], rereads: 0 };
  const one = await workstation('bench-1', store, []);
  const two = await workstation('bench-2', await postgresEngine.openAgain(store), onTwo, toldTwo);
  return { store, one, two, onTwo, toldTwo, stop: () => Promise.all([one.stop(), two.stop()]) };
}

test('a draft deleted on one workstation is gone from the other at once, and only the drafts deleted are said to be', async () => {
  const { one, two, onTwo, toldTwo, stop } = await benches();
  try {
    const fields = { recipient: { ...emptyRecipient(), firstName: 'Grace' }, models: [], shippingMethod: null, orderContent: emptyOrderContent() };
    const kept = await one.save('p', fields);
    const deleted = await one.save('p', { ...fields, recipient: { ...fields.recipient, firstName: 'Alan' } });
    await until(() => onTwo.some((d) => d.id === deleted.id), 'the draft shows on bench-2');
    await one.remove(deleted.id);
    await until(() => toldTwo.removed.includes(deleted.id), 'bench-2 is told it is gone');
    assert.deepEqual(toldTwo.removed, [deleted.id], 'the draft kept is not said to be gone');
    assert.deepEqual((await two.list('p')).map((d) => d.id), [kept.id]);
  } finally {
    await stop();
  }
});

test('after its listening connection dropped and came back, a workstation reads its lists again (what was told meanwhile is lost), and hears again', async () => {
  const { store, one, onTwo, toldTwo, stop } = await benches();
  try {
    await dropListeningConnections(store);
    await until(() => toldTwo.rereads > 0, 'bench-2 says its lists are to be read again');
    const fields = { recipient: { ...emptyRecipient(), firstName: 'Ada' }, models: [], shippingMethod: null, orderContent: emptyOrderContent() };
    const draft = await one.save('p', fields);
    await until(() => onTwo.some((d) => d.id === draft.id), 'bench-2 hears of a draft saved after the reconnect');
  } finally {
    await stop();
  }
});
