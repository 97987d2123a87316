// The store interface (sql.ts) over the app's SQLite file. better-sqlite3 is synchronous, so a statement
// never interleaves with another; a transaction that awaits between its statements, though, holds the one
// connection open, so everything else waits for it to end rather than slip into it.
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.ts';
import type { Params, Sql, TransactionOptions } from './sql.ts';

export function sqliteSql(db: Db): Sql {
  const statements = new Map<string, Statement<unknown[]>>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = db.prepare<unknown[]>(text)));
    return statement;
  };
  // The open transaction's end; null while none is open. Waiters re-check it after each wait with no await
  // between that check and what they run, so two cannot both find the connection free.
  let open: Promise<unknown> | null = null;

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
    while (open) await open.catch(() => undefined);
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
    open = run;
    try {
      return await run;
    } finally {
      if (open === run) open = null;
    }
  }

  const queued =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      while (open) await open.catch(() => undefined);
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
