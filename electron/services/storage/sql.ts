// The one store interface the shared domains (orders and the outbox, batches) are written against, so that
// the same code and the same migrations run on the embedded SQLite file and on a team's PostgreSQL
// (docs/storage.md, "Team mode"). SQL is written once, in the subset both engines read alike, with `?`
// placeholders; where they differ, the code asks `dialect`.

export type Dialect = 'sqlite' | 'postgres';

export type Params = readonly unknown[];

export interface TransactionOptions {
  /**
   * The commit survives power loss before this resolves (SQLite: synchronous=FULL for it). PostgreSQL
   * commits durably anyway. For the transitions the user is told about and those that decide a send.
   */
  durable?: boolean;
}

export interface Sql {
  readonly dialect: Dialect;
  all<T>(text: string, params?: Params): Promise<T[]>;
  get<T>(text: string, params?: Params): Promise<T | undefined>;
  /** Runs a statement; resolves with the number of rows it changed. */
  run(text: string, params?: Params): Promise<number>;
  /** Runs several statements without parameters (schema steps). */
  exec(script: string): Promise<void>;
  /**
   * Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it
   * throws. Inside, `fn` uses the `tx` it is given; a transaction begun inside it joins this one.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>, options?: TransactionOptions): Promise<T>;
}

/** `?, ?, ?` for a list bound as separate parameters (neither engine binds an array to one `IN (?)`). */
export const placeholders = (count: number): string => (count === 0 ? 'NULL' : Array.from({ length: count }, () => '?').join(', '));

/** One schema step of a domain, run once, in order, in its own transaction, on either engine. */
export type SqlMigration = (sql: Sql) => Promise<void>;

/**
 * Brings one domain's tables up to date on either engine. Each domain keeps its own version in
 * `schema_versions`, as the SQLite-only domains do (database.ts), so the two kinds share the table.
 */
export async function migrateSql(sql: Sql, domain: string, migrations: readonly SqlMigration[]): Promise<void> {
  for (;;) {
    // One step at a time, each re-reading the version under its own transaction: two workstations starting
    // at once on one team store must not both run a step (PostgreSQL: the advisory lock below). The lock is
    // one for every domain, because the first steps of two domains would both create schema_versions, and
    // PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe from a concurrent one.
    const ran = await sql.transaction(async (tx) => {
      if (tx.dialect === 'postgres') await tx.get("SELECT pg_advisory_xact_lock(hashtext('printdesk schema'))");
      await tx.exec('CREATE TABLE IF NOT EXISTS schema_versions (domain TEXT PRIMARY KEY, version INTEGER NOT NULL)');
      const row = await tx.get<{ version: number }>('SELECT version FROM schema_versions WHERE domain = ?', [domain]);
      const current = row?.version ?? 0;
      if (current > migrations.length) {
        throw new Error(`The ${domain} data was written by a newer PrintDesk (schema ${current}); update the app.`);
      }
      if (current === migrations.length) return false;
      await migrations[current](tx);
      await tx.run('INSERT INTO schema_versions (domain, version) VALUES (?, ?) ON CONFLICT (domain) DO UPDATE SET version = excluded.version', [domain, current + 1]);
      return true;
    });
    if (!ran) return;
  }
}
