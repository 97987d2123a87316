// Opens the sandbox database in the data directory and brings its schema up to date.
import path from 'node:path';
import Database from 'better-sqlite3';
import { preparePrivateDatabase } from '../private-files.ts';
import { LATEST_VERSION, MIGRATIONS } from './migrations.ts';
import type { Migration } from './migrations.ts';

export type Db = Database.Database;

export const DB_FILE = 'sandbox.sqlite';

export function openDatabase(dataDir: string): Db {
  // Password hashes, recipients' names and addresses: the folder and every file in it are this user's alone.
  const file = path.join(dataDir, DB_FILE);
  preparePrivateDatabase(file);
  const db = new Database(file);
  // WAL lets the operator CLI write while a server runs; FULL sync because a placed order must
  // survive a power cut, not just a killed process, and the sandbox is not throughput-bound.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, MIGRATIONS);
  return db;
}

export function migrate(db: Db, migrations: readonly Migration[]): void {
  const current = schemaVersion(db);
  const newest = migrations.length ? migrations[migrations.length - 1].version : 0;
  if (current > newest) {
    throw new Error(`Sandbox database is at schema version ${current}, newer than this build knows (${newest})`);
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      // Re-read under the write lock: the operator CLI and a server may open a new dir together.
      if (schemaVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export { LATEST_VERSION };
