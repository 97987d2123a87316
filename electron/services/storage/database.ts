import Database from 'better-sqlite3';
import { preparePrivateDatabase } from '../private-files.ts';

export type Db = Database.Database;

/** One schema step of a domain. Steps run once, in order, each in its own transaction. */
export type Migration = (db: Db) => void;

/**
 * The app's local database (drafts, outbox, uploads, batches). WAL mode: readers never block the
 * writer and a crash at any instant leaves a consistent file. `synchronous` is chosen per write
 * by the caller's needs: NORMAL by default (durable across an app crash, may lose the last
 * transactions on power loss), FULL around transitions the user is told about (see withDurability).
 */
export function openDatabase(path: string): Db {
  // Customers' names and addresses: for this user alone, from the first byte.
  if (path !== ':memory:') preparePrivateDatabase(path);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS schema_versions (domain TEXT PRIMARY KEY, version INTEGER NOT NULL)');
  return db;
}

/**
 * Brings one domain's tables up to date. Each domain (orders, uploads, batches…) keeps its own
 * version, so domains evolve independently and a migration never has to know about the others.
 */
export function migrate(db: Db, domain: string, migrations: readonly Migration[]): void {
  const row = db.prepare('SELECT version FROM schema_versions WHERE domain = ?').get(domain) as { version: number } | undefined;
  const current = row?.version ?? 0;
  if (current > migrations.length) {
    throw new Error(`The ${domain} data was written by a newer PrintDesk (schema ${current}); update the app.`);
  }
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      migrations[version](db);
      db.prepare('INSERT INTO schema_versions (domain, version) VALUES (?, ?) ON CONFLICT(domain) DO UPDATE SET version = excluded.version').run(domain, version + 1);
    })();
  }
}

/** Runs `fn` in a transaction committed with synchronous=FULL: it survives power loss. */
export function durably<T>(db: Db, fn: () => T): T {
  db.exec('PRAGMA synchronous = FULL');
  try {
    return db.transaction(fn)();
  } finally {
    db.exec('PRAGMA synchronous = NORMAL');
  }
}
