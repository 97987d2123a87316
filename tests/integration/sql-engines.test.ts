// The store interface (sql.ts) behaves alike on SQLite and on PostgreSQL: what the orders and batch domains are
// written against, checked on both engines. What only PostgreSQL does is in postgres-store.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { migrateSql, placeholders, type Sql, type SqlMigration } from '../../electron/services/storage/sql.ts';
import { forEachEngine } from '../sql-engines.ts';

const schema = 'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, quantity INTEGER NOT NULL, at BIGINT, price DOUBLE PRECISION)';

async function withItems(sql: Sql, names: string[]): Promise<void> {
  await sql.exec(schema);
  for (const [index, name] of names.entries()) await sql.run('INSERT INTO items (id, name, quantity, at) VALUES (?, ?, ?, ?)', [index + 1, name, index + 1, 0]);
}

/** Resolves when `gate.open()` is called: holds a transaction open while another runs. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

forEachEngine((engine) => {
  test(`? placeholders bind in order, and a ? inside a string stays text, on ${engine.name}`, async () => {
    const sql = await engine.open();
    await withItems(sql, ['cube', 'sphere', 'cone']);
    const row = await sql.get<{ question: string; name: string }>("SELECT 'why?' AS question, name FROM items WHERE id = ? AND quantity = ?", [2, 2]);
    assert.deepEqual(row, { question: 'why?', name: 'sphere' });
    const names = await sql.all<{ name: string }>(`SELECT name FROM items WHERE id IN (${placeholders(2)}) ORDER BY id`, [1, 3]);
    assert.deepEqual(names, [{ name: 'cube' }, { name: 'cone' }]);
    assert.deepEqual(await sql.all(`SELECT name FROM items WHERE id IN (${placeholders(0)})`), []);
  });

  test(`all, get and run: rows, the first row or none, and how many rows changed, on ${engine.name}`, async () => {
    const sql = await engine.open();
    await withItems(sql, ['cube', 'sphere', 'cone']);
    assert.deepEqual(await sql.all<{ id: number }>('SELECT id FROM items ORDER BY id DESC'), [{ id: 3 }, { id: 2 }, { id: 1 }]);
    assert.deepEqual(await sql.get('SELECT id FROM items WHERE name = ?', ['cone']), { id: 3 });
    assert.equal(await sql.get('SELECT id FROM items WHERE name = ?', ['torus']), undefined);
    assert.equal(await sql.run('UPDATE items SET quantity = quantity + 1 WHERE id >= ?', [2]), 2);
    assert.equal(await sql.run('UPDATE items SET quantity = 0 WHERE name = ?', ['torus']), 0);
    assert.equal(await sql.run('DELETE FROM items'), 3);
  });

  test(`a quoted alias keeps its case, as the domains name their fields, on ${engine.name}`, async () => {
    const sql = await engine.open();
    await withItems(sql, ['cube']);
    // PostgreSQL folds an unquoted name to lower case (createdat); quoted, both engines return it as written.
    assert.deepEqual(await sql.get('SELECT at AS "createdAt", name AS "modelName" FROM items'), { createdAt: 0, modelName: 'cube' });
  });

  test(`exec runs several statements, on ${engine.name}`, async () => {
    const sql = await engine.open();
    await sql.exec(`${schema};
      CREATE INDEX items_by_name ON items (name);
      INSERT INTO items (id, name, quantity) VALUES (1, 'a;b', 1);
      INSERT INTO items (id, name, quantity) VALUES (2, 'c', 2);`);
    assert.deepEqual(await sql.all('SELECT name FROM items ORDER BY id'), [{ name: 'a;b' }, { name: 'c' }]);
  });

  test(`BIGINT times, DOUBLE PRECISION prices, COUNT and SUM come back as numbers, on ${engine.name}`, async () => {
    const sql = await engine.open();
    await withItems(sql, ['cube', 'sphere']);
    const now = Date.now();
    for (const at of [now, -now, 8_640_000_000_000_000, Number.MAX_SAFE_INTEGER]) {
      await sql.run('UPDATE items SET at = ? WHERE id = 1', [at]);
      assert.deepEqual(await sql.get('SELECT at FROM items WHERE id = 1'), { at });
    }
    await sql.run('UPDATE items SET at = ?, price = ? WHERE id = 2', [now, 12.34]);
    assert.deepEqual(await sql.get('SELECT price FROM items WHERE id = 2'), { price: 12.34 });
    assert.deepEqual(await sql.get('SELECT COUNT(*) AS n, SUM(quantity) AS total, MAX(at) AS latest FROM items'), { n: 2, total: 3, latest: Number.MAX_SAFE_INTEGER });
  });

  test(`a transaction commits when it resolves and rolls back when it throws, on ${engine.name}`, async () => {
    const sql = await engine.open();
    await withItems(sql, []);
    const value = await sql.transaction(async (tx) => {
      await tx.run('INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)', [1, 'kept', 1]);
      return 'done';
    });
    assert.equal(value, 'done');
    const failure = new Error('the send failed');
    await assert.rejects(
      sql.transaction(async (tx) => {
        await tx.run('INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)', [2, 'lost', 1]);
        await tx.run('UPDATE items SET quantity = 9 WHERE id = 1');
        throw failure;
      }),
      (error) => error === failure,
    );
    assert.deepEqual(await sql.all('SELECT id, quantity FROM items'), [{ id: 1, quantity: 1 }]);
    // A failed statement rolls the transaction back too, and the store goes on.
    await assert.rejects(sql.transaction((tx) => tx.run('INSERT INTO items (id, name, quantity) VALUES (?, ?, ?)', [1, 'twice', 1])));
    assert.equal(await sql.run('UPDATE items SET quantity = 2'), 1);
  });

  test(`a transaction begun inside another joins it, in its commit and its rollback, on ${engine.name}`, async () => {
    const sql = await engine.open();
    await withItems(sql, []);
    const insert = (tx: Sql, id: number) => tx.run('INSERT INTO items (id, name, quantity) VALUES (?, ?, 1)', [id, `item ${id}`]);
    await sql.transaction(async (tx) => {
      await insert(tx, 1);
      await tx.transaction((inner) => insert(inner, 2));
    });
    await assert.rejects(
      sql.transaction(async (tx) => {
        await tx.transaction((inner) => insert(inner, 3));
        throw new Error('outer fails after the inner one resolved');
      }),
    );
    await assert.rejects(sql.transaction((tx) => insert(tx, 4).then(() => tx.transaction(() => Promise.reject(new Error('inner fails'))))));
    assert.deepEqual(await sql.all('SELECT id FROM items ORDER BY id'), [{ id: 1 }, { id: 2 }]);
  });

  test(`concurrent read-then-write transactions each see the last one's write, on ${engine.name}`, async () => {
    const sql = await engine.open();
    await withItems(sql, ['counter']);
    // SQLite runs them one after another on its one connection; PostgreSQL each on its own, the row lock
    // ordering them. Either way none starts inside another and no increment is lost.
    const lock = sql.dialect === 'postgres' ? ' FOR UPDATE' : '';
    await Promise.all(
      Array.from({ length: 12 }, () =>
        sql.transaction(async (tx) => {
          const row = await tx.get<{ quantity: number }>(`SELECT quantity FROM items WHERE id = 1${lock}`);
          await tick();
          await tx.run('UPDATE items SET quantity = ? WHERE id = 1', [row!.quantity + 1]);
        }),
      ),
    );
    assert.deepEqual(await sql.get('SELECT quantity FROM items WHERE id = 1'), { quantity: 13 });
  });

  test(`a statement outside a transaction sees it committed whole or not at all, on ${engine.name}`, async () => {
    const sql = await engine.open();
    await withItems(sql, []);
    const held = gate();
    const inserted = gate();
    const writing = sql.transaction(async (tx) => {
      await tx.run("INSERT INTO items (id, name, quantity) VALUES (1, 'a', 1)");
      inserted.open();
      await held.opened;
      await tx.run("INSERT INTO items (id, name, quantity) VALUES (2, 'b', 1)");
    });
    await inserted.opened;
    const reading = sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM items');
    if (sql.dialect === 'postgres') {
      // Another connection reads what was committed before the transaction, at once.
      const before = await reading;
      held.open();
      assert.deepEqual(before, { n: 0 });
    } else {
      // The one connection is the transaction's until it ends: the statement waits for it.
      held.open();
      assert.deepEqual(await reading, { n: 2 });
    }
    await writing;
    assert.deepEqual(await sql.get('SELECT COUNT(*) AS n FROM items'), { n: 2 });
  });

  test(`migrateSql runs each step once, in order, however often it is called, on ${engine.name}`, async () => {
    const sql = await engine.open();
    const steps: SqlMigration[] = [
      (tx) => tx.exec('CREATE TABLE steps (step INTEGER NOT NULL); INSERT INTO steps VALUES (1)'),
      (tx) => tx.run('INSERT INTO steps VALUES (2)').then(() => undefined),
    ];
    await migrateSql(sql, 'things', steps);
    await migrateSql(sql, 'things', steps);
    await migrateSql(sql, 'things', [...steps, (tx) => tx.exec('INSERT INTO steps VALUES (3)')]);
    assert.deepEqual(await sql.all('SELECT step FROM steps ORDER BY step'), [{ step: 1 }, { step: 2 }, { step: 3 }]);
    assert.deepEqual(await sql.get('SELECT version FROM schema_versions WHERE domain = ?', ['things']), { version: 3 });
    await assert.rejects(migrateSql(sql, 'things', steps), /newer PrintDesk \(schema 3\)/);
  });

  test(`a migration step that fails leaves the schema as it was before that step, on ${engine.name}`, async () => {
    const sql = await engine.open();
    const steps: SqlMigration[] = [
      (tx) => tx.exec('CREATE TABLE steps (step INTEGER NOT NULL)'),
      async (tx) => {
        await tx.exec('CREATE TABLE half (id INTEGER)');
        throw new Error('step 2 fails');
      },
    ];
    await assert.rejects(migrateSql(sql, 'things', steps), /step 2 fails/);
    assert.deepEqual(await sql.get('SELECT version FROM schema_versions WHERE domain = ?', ['things']), { version: 1 });
    await migrateSql(sql, 'things', [steps[0], (tx) => tx.exec('CREATE TABLE half (id INTEGER)')]);
    assert.deepEqual(await sql.all('SELECT id FROM half'), []);
  });
});
