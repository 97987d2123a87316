// The store interface (sql.ts) over the app's SQLite file. better-sqlite3 is synchronous, so a statement
// never interleaves with another; a transaction that awaits between its statements, though, holds the one
// connection open, so everything else waits for it to end rather than slip into it. The wait is shared by
// every connection this process has to the same file (tests run two hosts on one): a second connection
// beginning while the first holds a transaction would busy-wait, blocking the event loop the first needs
// to finish.
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';
import type { Params, Sql, TransactionOptions } from './sql.ts';

/** The open transaction on each file, by path (an in-memory database is its own). */
const gates = new Map<string, { open: Promise<unknown> | null }>();

function gateOf(db: Db): { open: Promise<unknown> | null } {
  if (db.memory) return { open: null };
  let gate = gates.get(db.name);
  if (!gate) gates.set(db.name, (gate = { open: null }));
  return gate;
}

export function sqliteSql(db: Db): Sql {
  const statements = new Map<string, Statement<unknown[]>>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare<unknown[]>(text)));
    return statement;
  };
  // The open transaction's end; null while none is open. Waiters re-check it after each wait with no await
  // between that check and what they run, so two cannot both find the file free.
  const gate = gateOf(db);

  const direct: Sql = {
    dialect: 'sqlite',
    all: async <T>(text: string, params: Params = []) => prepared(text).all(...params) as T[],
    get: async <T>(text: string, params: Params = []) => prepared(text).get(...params) as T | undefined,
    run: async (text: string, params: Params = []) => prepared(text).run(...params).changes,
    exec: async (script: string) => void db.exec(script),
    // Inside a transaction, one begun again joins it.
    transaction: <T>(fn: (tx: Sql) => Promise<T>) => fn(direct),
  };

  async function transaction<T>(fn: (tx: Sql) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    while (gate.open) await gate.open.catch(() => undefined);
    const run = (async () => {
      if (options.durable) db.exec('PRAGMA synchronous = FULL');
      // IMMEDIATE: the write lock is taken at the start, so another process's writer waits (busy_timeout)
      // instead of failing half-way when this one upgrades from reading.
      db.exec('BEGIN IMMEDIATE');
      try {
        const value = await fn(direct);
        db.exec('COMMIT');
        return value;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      } finally {
        if (options.durable) db.exec('PRAGMA synchronous = NORMAL');
      }
    })();
    gate.open = run;
    try {
      return await run;
    } finally {
      if (gate.open === run) gate.open = null;
    }
  }

  const queued =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      while (gate.open) await gate.open.catch(() => undefined);
      return call(...args);
    };

  return {
    dialect: 'sqlite',
    all: queued(direct.all) as Sql['all'],
    get: queued(direct.get) as Sql['get'],
    run: queued(direct.run),
    exec: queued(direct.exec),
    transaction,
  };
}
