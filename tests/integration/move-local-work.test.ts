// "Move my local work to the team store": this computer's SQLite store copied into a team's (PostgreSQL, and
// SQLite to show the loop is the store interface's), once: a second move, or one after a crash at any
// statement, copies the rest and nothing twice; only the signed-in account's own work moves; an order on its
// way stays until answered, and one waiting in this computer's outbox is held here once the team has it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Sql } from '../../electron/services/storage/sql.ts';
import { moveLocalWork, type LocalWork } from '../../electron/services/team/move-local-work.ts';
import { BATCHES, DRAFTS, KEYED_TABLES, copiedColumns } from '../../electron/services/team/moved-tables.ts';
import { createOrdersStore } from '../../electron/services/orders/store.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { sqliteSql } from '../../electron/services/storage/sqlite-sql.ts';
import { DRAFTS_CHANNEL, noticeFrom } from '../../electron/services/orders/live.ts';
import { forEachEngine, postgresEngine, sqliteEngine } from '../sql-engines.ts';
import { ADA, GRACE, localWork, NOW } from './fixtures/local-work.ts';

type Store = Awaited<ReturnType<typeof createOrdersStore>>;

function mover(from: Sql, to: Sql, local: Store, account = ADA, overrides: Partial<LocalWork> = {}): () => ReturnType<typeof moveLocalWork> {
  return () =>
    moveLocalWork({
      from,
      to,
      account,
      movedNote: 'Moved from bench-1’s own store',
      actor: `${account.split(' ')[1]} on bench-1`,
      holdHere: async (ids) => (await Promise.all(ids.map((id) => local.transition(id, ['queued'], 'queued', { held: true, note: 'Moved to the team store' })))).filter(Boolean).length,
      now: NOW,
      ...overrides,
    });
}

/** Every moved table's rows as a store holds them, in a stable order, without what each store numbers itself. */
async function contents(sql: Sql): Promise<Record<string, unknown[]>> {
  const all: Record<string, unknown[]> = {};
  const tables = [...KEYED_TABLES.map((t) => t.table), BATCHES.table, ...BATCHES.children.map((c) => c.table), DRAFTS.table];
  for (const table of tables) {
    const columns = await copiedColumns(table);
    all[table] = (await sql.all<Record<string, unknown>>(`SELECT ${columns.join(', ')} FROM ${table}`)).map((row) => JSON.stringify(columns.map((c) => row[c]))).sort();
  }
  // A history's steps in their order, per order.
  all.order_events = (await sql.all<Record<string, unknown>>('SELECT draft_id, at, kind, detail, actor FROM order_events ORDER BY draft_id, id')).map((row) => JSON.stringify(Object.values(row)));
  return all;
}

forEachEngine((engine) => {
  test(`the signed-in account's work is copied whole, with its ids, histories and batches, on ${engine.name}`, async () => {
    const from = await sqliteEngine.open();
    const to = await engine.open();
    const local = await localWork(from);
    const report = await mover(from, to, local.store)();

    assert.deepEqual(report.copied, { orders: local.ada.length - 1, history: local.adaEvents - local.sendingEvents, batches: 1, batchRows: 6, addresses: 2, skus: 2, layouts: 1 });
    assert.deepEqual(report.skipped, { orders: 0, history: 0, batches: 0, batchRows: 0, addresses: 0, skus: 0, layouts: 0 });
    assert.equal(report.onTheirWay, 1, 'the order on its way stays until it is answered');
    assert.equal(report.heldHere, 4, 'the single order and the batch’s three waiting in the outbox');

    const team = await createOrdersStore(to, NOW);
    for (const draft of local.ada) {
      const copy = await team.get(draft.id);
      if (draft.state === 'sending') {
        assert.equal(copy, null);
        continue;
      }
      assert.ok(copy, `${draft.orderReference} copied`);
      assert.deepEqual([copy.orderReference, copy.state, copy.held, copy.attempts, copy.recipient, copy.batch?.batchId ?? null], [draft.orderReference, draft.state, draft.held, draft.attempts, draft.recipient, draft.batch?.batchId ?? null]);
      const history = await team.history(draft.id);
      const before = await local.store.history(draft.id);
      assert.deepEqual(history.slice(0, -1).map((e) => [e.kind, e.at]), before.filter((e) => !(e.kind === 'held' && e.message === 'Moved to the team store')).map((e) => [e.kind, e.at]));
      assert.deepEqual(history.at(-1), { at: '2026-12-01T09:00:00Z', kind: 'moved', message: 'Moved from bench-1’s own store', actor: 'ada@shop.example on bench-1' });
    }
    const claims = await to.all<{ claimed_by: string | null; lease_until: number }>('SELECT claimed_by, lease_until FROM drafts');
    assert.ok(claims.every((row) => row.claimed_by === null && Number(row.lease_until) === 0), 'no send lease of this computer’s travels');

    // Grace's work stays here: she moves it herself when she signs in.
    assert.equal((await to.get<{ n: number }>('SELECT COUNT(*) AS n FROM drafts WHERE account = ?', [GRACE]))?.n, 0);
    assert.equal((await to.get<{ n: number }>('SELECT COUNT(*) AS n FROM recipients WHERE account = ?', [GRACE]))?.n, 0);
    assert.equal((await to.get<{ n: number }>('SELECT COUNT(*) AS n FROM batches WHERE account = ?', [GRACE]))?.n, 0);
    // A batch's rows, problems (in the order found), orders and shipping, as they were.
    const batchTables = ['batch_rows', 'batch_errors', 'batch_orders', 'batch_shipping'];
    for (const table of batchTables) {
      const columns = await copiedColumns(table);
      const order = table === 'batch_errors' ? `row, ${to.dialect === 'postgres' ? 'seq' : 'rowid'}` : columns.slice(0, 2).join(', ');
      const read = (sql: Sql, byRowid: string) => sql.all(`SELECT ${columns.join(', ')} FROM ${table} WHERE batch_id = ? ORDER BY ${byRowid}`, [local.adaBatch]);
      assert.deepEqual(await read(to, order), await read(from, table === 'batch_errors' ? 'row, rowid' : columns.slice(0, 2).join(', ')), table);
    }

    // Exactly once: the team's outbox may send what waited here; this computer's never will.
    assert.equal(await local.store.claimNext(Date.parse('2030-01-01'), ADA, [], 0), null);
    assert.ok(await team.claimNext(Date.parse('2030-01-01'), ADA, [], 0));
  });

  test(`a second move copies nothing twice, and a send answered since moves then, on ${engine.name}`, async () => {
    const from = await sqliteEngine.open();
    const to = await engine.open();
    const local = await localWork(from);
    const move = mover(from, to, local.store);
    const first = await move();
    const after = await contents(to);
    const again = await move();
    assert.deepEqual(again.copied, { orders: 0, history: 0, batches: 0, batchRows: 0, addresses: 0, skus: 0, layouts: 0 });
    assert.deepEqual(again.skipped, { ...first.copied, history: 0, batchRows: 0 });
    assert.equal(again.heldHere, 0);
    assert.deepEqual(await contents(to), after, 'the team store is as the first move left it');

    await local.store.transition(local.sending.id, ['sending'], 'placed', { placed: { orderId: 'O-9', status: 'in_production', createdAt: null, shippingPrice: 495, currency: 'EUR' } });
    const third = await move();
    assert.equal(third.copied.orders, 1);
    assert.equal(third.onTheirWay, 0);
    assert.equal((await (await createOrdersStore(to)).get(local.sending.id))?.state, 'placed');
  });

  test(`a move cut short at any statement, then run again, leaves what one clean move does, on ${engine.name}`, { timeout: 240_000 }, async () => {
    const from = await sqliteEngine.open();
    const local = await localWork(from);
    // The same computer's store twice (one copy for a clean move, to compare with), ids and all.
    const twin = await sqliteEngine.open();
    const copyPath = `${(await twin.get<{ file: string }>('SELECT file FROM pragma_database_list WHERE name = ?', ['main']))?.file}.copy`;
    await from.exec(`VACUUM INTO '${copyPath}'`);
    const fromCopy = sqliteSql(openDatabase(copyPath));
    const clean = await engine.open();
    const cleanReport = await mover(fromCopy, clean, await createOrdersStore(fromCopy, NOW, { workstation: 'bench-1', actor: () => 'ada@shop.example on bench-1' }))();

    const to = await engine.open();
    let statements = 0;
    let crashAt = 1;
    const crashing = faulty(to, () => ++statements === crashAt);
    for (;;) {
      statements = 0;
      try {
        await mover(from, crashing, local.store)();
        break;
      } catch (error) {
        assert.match((error as Error).message, /crash/);
        crashAt++;
      }
    }
    assert.ok(crashAt > 10, `cut short at ${crashAt - 1} places before a move went through`);
    assert.deepEqual(await contents(to), await contents(clean), 'the team store as one clean move leaves it');
    assert.deepEqual(await contents(from), await contents(fromCopy), 'this computer’s store as one clean move leaves it');
    assert.equal((await to.all('SELECT id FROM drafts')).length, cleanReport.copied.orders);
  });

  test(`a move cut short after the team has an order but before it was held here holds it the next time, on ${engine.name}`, async () => {
    const from = await sqliteEngine.open();
    const to = await engine.open();
    const local = await localWork(from);
    await assert.rejects(mover(from, to, local.store, ADA, { holdHere: async () => Promise.reject(new Error('crash while holding')) })(), /crash while holding/);
    const again = await mover(from, to, local.store)();
    assert.equal(again.heldHere, 4);
    assert.equal(again.copied.orders, 0, 'copied by the move cut short');
    assert.equal(await local.store.claimNext(Date.parse('2030-01-01'), ADA, [], 0), null);
  });

  test(`each account moves its own: Grace's move after Ada's copies only hers, on ${engine.name}`, async () => {
    const from = await sqliteEngine.open();
    const to = await engine.open();
    const local = await localWork(from);
    await mover(from, to, local.store)();
    const grace = await mover(from, to, local.store, GRACE)();
    assert.deepEqual(grace.copied, { orders: 1, history: 1, batches: 1, batchRows: 2, addresses: 1, skus: 0, layouts: 0 });
    assert.deepEqual([grace.skipped.skus, grace.skipped.layouts, grace.skipped.orders], [2, 1, 0], 'the project’s SKU table and the layouts are no one’s: there already');
    assert.equal((await to.get<{ n: number }>('SELECT COUNT(*) AS n FROM drafts WHERE account = ?', [GRACE]))?.n, 1);
  });
});

test('the workstations on a team’s PostgreSQL are told of the orders moved in', async () => {
  const from = await sqliteEngine.open();
  const to = await postgresEngine.open();
  const local = await localWork(from);
  const told: string[] = [];
  const stop = await to.listen(DRAFTS_CHANNEL, (payload) => told.push(...(noticeFrom(payload, 'another workstation')?.ids ?? [])));
  await mover(from, to, local.store)();
  const deadline = Date.now() + 10_000;
  while (told.length < local.ada.length - 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await stop();
  assert.deepEqual(told.sort(), local.ada.filter((d) => d.state !== 'sending').map((d) => d.id).sort());
});

/** `sql` with every statement made to fail where `crash()` says so, as a process killed there would leave it. */
function faulty(sql: Sql, crash: () => boolean): Sql {
  const wrap = (inner: Sql): Sql => {
    const check = () => {
      if (crash()) throw new Error('crash (simulated)');
    };
    return {
      dialect: inner.dialect,
      all: async (text, params) => (check(), inner.all(text, params)),
      get: async (text, params) => (check(), inner.get(text, params)),
      run: async (text, params) => (check(), inner.run(text, params)),
      exec: async (script) => (check(), inner.exec(script)),
      transaction: (fn, options) => inner.transaction((tx) => fn(wrap(tx)), options),
    };
  };
  return wrap(sql);
}
