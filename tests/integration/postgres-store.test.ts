// What only the team store (PostgreSQL) does: workstations at once on one database (migrations, claiming rows
// with SKIP LOCKED), live updates over LISTEN/NOTIFY, and the words said when the store cannot be opened.
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { openPostgresStore, type PostgresStore } from '../../electron/services/storage/postgres-sql.ts';
import { migrateSql, type SqlMigration } from '../../electron/services/storage/sql.ts';
import { postgresEngine } from '../sql-engines.ts';

const timeout = 60_000;

/** What `store` hears on `channel` from now on; `until(n)` resolves once n payloads arrived. */
async function inbox(store: PostgresStore, channel: string, onMissed?: () => void) {
  const received: string[] = [];
  const waiters: (() => void)[] = [];
  const unlisten = await store.listen(
    channel,
    (payload) => {
      received.push(payload);
      for (const wake of waiters.splice(0)) wake();
    },
    onMissed,
  );
  const until = async (count: number) => {
    while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return received;
  };
  return { received, until, unlisten };
}

/** A TCP relay to the cluster that can be cut and restored on the same port: the network between a workstation and its store. */
async function relayTo(port: number) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let relayPort = 0;
  const up = async () => {
    server = createServer((near) => {
      const far = connect(port, '127.0.0.1');
      for (const socket of [near, far]) {
        sockets.add(socket);
        socket.on('error', () => undefined).on('close', () => (near.destroy(), far.destroy()));
      }
      near.pipe(far).pipe(near);
    });
    await new Promise<void>((resolve) => server!.listen(relayPort, '127.0.0.1', resolve));
    relayPort = (server.address() as { port: number }).port;
  };
  const down = async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await new Promise((resolve) => server!.close(resolve));
  };
  await up();
  return { port: relayPort, up, down };
}

describe('PostgreSQL, several workstations on one store', () => {
  test('workstations migrating two domains at once run each step once', { timeout }, async () => {
    const first = await postgresEngine.open();
    const stores = [first, await postgresEngine.openAgain(first), await postgresEngine.openAgain(first)];
    const steps: SqlMigration[] = [
      (tx) => tx.exec('CREATE TABLE steps (step INTEGER NOT NULL); INSERT INTO steps VALUES (1)'),
      // Slow enough that the others arrive while it runs.
      (tx) => tx.exec('SELECT pg_sleep(0.2); INSERT INTO steps VALUES (2)'),
    ];
    const others: SqlMigration[] = [(tx) => tx.exec('CREATE TABLE others (id INTEGER); INSERT INTO others VALUES (1)')];
    await Promise.all(stores.flatMap((store) => [migrateSql(store, 'things', steps), migrateSql(store, 'others', others)]));
    assert.deepEqual(await first.all('SELECT step FROM steps ORDER BY step'), [{ step: 1 }, { step: 2 }]);
    assert.deepEqual(await first.all('SELECT id FROM others'), [{ id: 1 }]);
    assert.deepEqual(await first.all('SELECT domain, version FROM schema_versions ORDER BY domain'), [
      { domain: 'others', version: 1 },
      { domain: 'things', version: 2 },
    ]);
  });

  test('each transaction has a connection of its own, and says so when used after it ended', { timeout }, async () => {
    const sql = await postgresEngine.open();
    const pids = new Set<number>();
    let release!: () => void;
    const bothIn = new Promise<void>((resolve) => (release = resolve));
    let leaked: PostgresStore | undefined;
    await Promise.all(
      [1, 2].map(() =>
        sql.transaction(async (tx) => {
          pids.add((await tx.get<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!.pid);
          if (pids.size === 2) release();
          await bothIn;
          leaked = tx as PostgresStore;
        }),
      ),
    );
    assert.equal(pids.size, 2);
    await assert.rejects(leaked!.get('SELECT 1'), /transaction has ended/);
  });

  test('two claimers with FOR UPDATE SKIP LOCKED never take the same row', { timeout }, async () => {
    const sql = await postgresEngine.open();
    await sql.exec('CREATE TABLE jobs (id INTEGER PRIMARY KEY, claimer TEXT)');
    for (let id = 1; id <= 40; id++) await sql.run('INSERT INTO jobs (id) VALUES (?)', [id]);
    const other = await postgresEngine.openAgain(sql);
    const claim = (store: PostgresStore, claimer: string, whileHeld: () => Promise<void> = () => delay(2)) =>
      store.transaction(async (tx) => {
        const row = await tx.get<{ id: number }>('SELECT id FROM jobs WHERE claimer IS NULL ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED');
        if (!row) return null;
        await whileHeld();
        await tx.run('UPDATE jobs SET claimer = ? WHERE id = ?', [claimer, row.id]);
        return row.id;
      });

    // While one claim holds the first row, another passes over it at once instead of waiting or taking it.
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const slow = claim(sql, 'a', () => (holding(), finished));
    await held;
    assert.equal(await claim(other, 'b'), 2);
    finish();
    assert.equal(await slow, 1);

    const takes = { a: [] as number[], b: [] as number[] };
    const drain = async (store: PostgresStore, claimer: 'a' | 'b') => {
      for (let id = await claim(store, claimer); id !== null; id = await claim(store, claimer)) takes[claimer].push(id);
    };
    await Promise.all([drain(sql, 'a'), drain(other, 'b')]);
    const taken = [...takes.a, ...takes.b].sort((x, y) => x - y);
    assert.deepEqual(taken, Array.from({ length: 38 }, (_, index) => index + 3));
    assert.deepEqual(await sql.get('SELECT COUNT(*) AS n FROM jobs WHERE claimer IS NULL'), { n: 0 });
    assert.deepEqual(await sql.all("SELECT id FROM jobs WHERE claimer = 'a' ORDER BY id"), [1, ...takes.a].sort((x, y) => x - y).map((id) => ({ id })));
  });

  test('a BIGINT too large for a JavaScript number is refused, not rounded', { timeout }, async () => {
    const sql = await postgresEngine.open();
    await assert.rejects(sql.get('SELECT 9007199254740993::bigint AS n'), /9007199254740993 is too large/);
    assert.deepEqual(await sql.get('SELECT 9007199254740991::bigint AS n'), { n: 9007199254740991 });
  });
});

describe('PostgreSQL, live updates', () => {
  test('a payload notified on one store reaches a listener on another', { timeout }, async () => {
    const listener = await postgresEngine.open();
    const sender = await postgresEngine.openAgain(listener);
    const orders = await inbox(listener, 'orders changed');
    await sender.notify('orders changed', '{"id":"order-1"}');
    assert.deepEqual(await orders.until(1), ['{"id":"order-1"}']);
  });

  test('a notification sent in a transaction arrives at its commit, and never when it rolls back', { timeout }, async () => {
    const listener = await postgresEngine.open();
    const sender = await postgresEngine.openAgain(listener);
    const batches = await inbox(listener, 'batches');
    await assert.rejects(
      sender.transaction(async (tx) => {
        await tx.get('SELECT pg_notify(?, ?)', ['batches', 'rolled back']);
        throw new Error('undone');
      }),
    );
    await sender.transaction(async (tx) => {
      await tx.get('SELECT pg_notify(?, ?)', ['batches', 'committed']);
      await delay(50);
      assert.deepEqual(batches.received, []);
    });
    // Delivered in commit order: once 'after' is in, anything sent before it would be too.
    await sender.notify('batches', 'after');
    assert.deepEqual(await batches.until(2), ['committed', 'after']);
  });

  test('a channel no longer listened to delivers nothing, and the others go on', { timeout }, async () => {
    const listener = await postgresEngine.open();
    const sender = await postgresEngine.openAgain(listener);
    const left = await inbox(listener, 'left');
    const kept = await inbox(listener, 'kept');
    await left.unlisten();
    await sender.transaction(async (tx) => {
      await tx.get('SELECT pg_notify(?, ?)', ['left', 'not heard']);
      await tx.get('SELECT pg_notify(?, ?)', ['kept', 'heard']);
    });
    assert.deepEqual(await kept.until(1), ['heard']);
    assert.deepEqual(left.received, []);
  });

  test('when the listening connection drops, it comes back, listens again and says what may have been missed', { timeout }, async () => {
    const listener = await postgresEngine.open();
    const sender = await postgresEngine.openAgain(listener);
    let missed!: () => void;
    const reconnected = new Promise<void>((resolve) => (missed = resolve));
    const orders = await inbox(listener, 'orders changed', () => missed());
    const dropped = await sender.get<{ n: number }>(
      "SELECT COUNT(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name = 'printdesk-listen' AND datname = current_database()",
    );
    assert.deepEqual(dropped, { n: 1 });
    await reconnected;
    await sender.notify('orders changed', 'after the drop');
    assert.deepEqual(await orders.until(1), ['after the drop']);
  });
});

describe('PostgreSQL, through a network that fails', () => {
  test('listening resumes when the store is back, after a failed start and after a cut', { timeout }, async (t) => {
    const direct = await postgresEngine.open();
    const { port, database } = (await direct.get<{ port: number; database: string }>("SELECT current_setting('port')::int AS port, current_database() AS database"))!;
    const relay = await relayTo(port);
    t.after(() => relay.down());
    const store = await openPostgresStore(`postgres://postgres@127.0.0.1:${relay.port}/${database}`);
    t.after(() => store.close());

    await relay.down();
    await assert.rejects(store.listen('orders changed', () => undefined));
    await relay.up();
    let missed!: () => void;
    const reconnected = new Promise<void>((resolve) => (missed = resolve));
    const orders = await inbox(store, 'orders changed', () => missed());
    await direct.notify('orders changed', 'first');
    assert.deepEqual(await orders.until(1), ['first']);

    // Cut for longer than the first retries wait: it keeps trying until the store answers again.
    await relay.down();
    await delay(1_000);
    await relay.up();
    await reconnected;
    await direct.notify('orders changed', 'second');
    assert.deepEqual(await orders.until(2), ['first', 'second']);
  });
});

describe('PostgreSQL, opening the store', () => {
  const password = 'pw-not-for-screens';

  test('a server not listening is named, with why, and without the password', { timeout }, async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    await assert.rejects(openPostgresStore(`postgres://printdesk:${password}@127.0.0.1:${port}/shop`), (error: Error) => {
      assert.match(error.message, new RegExp(`^The team store at 127\\.0\\.0\\.1:${port} could not be reached: .*ECONNREFUSED`));
      assert.doesNotMatch(error.message, new RegExp(password));
      return true;
    });
  });

  test('a server that refuses says what it refused', { timeout }, async () => {
    const sql = await postgresEngine.open();
    const port = (await sql.get<{ port: number }>("SELECT current_setting('port')::int AS port"))!.port;
    await assert.rejects(openPostgresStore(`postgres://postgres:${password}@127.0.0.1:${port}/no_such_shop`), (error: Error) => {
      assert.equal(error.message, `The team store at 127.0.0.1:${port} refused the connection: database "no_such_shop" does not exist`);
      return true;
    });
  });

  test('an address that is not a URL is said to be one, without echoing it', async () => {
    await assert.rejects(openPostgresStore(`postgres://printdesk:${password}@[bad/shop`), (error: Error) => {
      assert.match(error.message, /not a PostgreSQL URL/);
      assert.doesNotMatch(error.message, new RegExp(password));
      return true;
    });
  });
});
