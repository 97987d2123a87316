// The same suite run on both engines of the store interface (electron/services/storage/sql.ts):
//
//   forEachEngine((engine) => {
//     test(`… on ${engine.name}`, async () => { const sql = await engine.open(); … });
//   });
//
// Each open() is a fresh, empty store: a new SQLite file, or a new database on one throwaway PostgreSQL cluster
// started at the first open of the test file. Importing this file registers the test file's hooks: what a test
// opened is closed after it, and the cluster and the SQLite folder are removed after the file's last test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe } from 'node:test';
import { openDatabase } from '../electron/services/storage/database.ts';
import { openPostgresStore, type PostgresStore } from '../electron/services/storage/postgres-sql.ts';
import type { Dialect, Sql } from '../electron/services/storage/sql.ts';
import { sqliteSql } from '../electron/services/storage/sqlite-sql.ts';
import { startPgCluster, type PgCluster } from './pg-cluster.ts';

export interface SqlEngine<S extends Sql = Sql> {
  readonly name: 'SQLite' | 'PostgreSQL';
  readonly dialect: Dialect;
  /** A fresh, empty store, closed when the test ends. */
  open(): Promise<S>;
  /** Another connection to the store `sql` is on, as a second process or workstation would have it. */
  openAgain(sql: S): Promise<S>;
}

const closers: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await Promise.resolve(close()).catch(() => undefined);
});

let folder: string | undefined;
const files = new WeakMap<Sql, string>();

function openSqliteFile(path: string): Sql {
  const db = openDatabase(path);
  closers.push(() => {
    db.close();
  });
  const sql = sqliteSql(db);
  files.set(sql, path);
  return sql;
}

export const sqliteEngine: SqlEngine = {
  name: 'SQLite',
  dialect: 'sqlite',
  async open() {
    folder ??= mkdtempSync(join(tmpdir(), 'printdesk-sql-'));
    return openSqliteFile(join(folder, `${crypto.randomUUID()}.db`));
  },
  async openAgain(sql) {
    const path = files.get(sql);
    if (!path) throw new Error('openAgain takes a store this engine opened');
    return openSqliteFile(path);
  },
};

let cluster: Promise<PgCluster> | undefined;
const urls = new WeakMap<Sql, string>();

async function openPostgresUrl(url: string): Promise<PostgresStore> {
  const store = await openPostgresStore(url);
  closers.push(() => store.close());
  urls.set(store, url);
  return store;
}

export const postgresEngine: SqlEngine<PostgresStore> = {
  name: 'PostgreSQL',
  dialect: 'postgres',
  async open() {
    cluster ??= startPgCluster();
    return openPostgresUrl(await (await cluster).createDatabase());
  },
  async openAgain(sql) {
    const url = urls.get(sql);
    if (!url) throw new Error('openAgain takes a store this engine opened');
    return openPostgresUrl(url);
  },
};

after(async () => {
  if (folder) rmSync(folder, { recursive: true, force: true });
  const started = cluster;
  cluster = undefined;
  await (await started?.catch(() => undefined))?.stop();
});

export const engines: readonly SqlEngine[] = [sqliteEngine, postgresEngine];

/** Cuts every listening connection to the database `sql` is on, as a network drop would: they come back by themselves. */
export async function dropListeningConnections(sql: PostgresStore): Promise<void> {
  await sql.get("SELECT COUNT(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name = 'printdesk-listen' AND datname = current_database()");
}

/** Declares `suite` once per engine, each in a block named after it. */
export function forEachEngine(suite: (engine: SqlEngine) => void): void {
  for (const engine of engines) describe(engine.name, () => suite(engine));
}
