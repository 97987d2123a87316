// The batches domain's schema steps, one a release; each runs once, in order, on either engine of the store
// interface (storage/sql.ts). The SQLite files written by earlier releases read on: where PostgreSQL differs
// (a table without a rowid, an insertion order of its own), the step asks the dialect.
import type { Dialect, Sql, SqlMigration } from '../storage/sql.ts';
import { lowerCaseAccountKeysIn } from '../storage/account-keys.ts';

/** Rows' insertion order in batches and batch_errors: SQLite's rowid, a sequence column on PostgreSQL. */
export const INSERTION_ORDER = { sqlite: 'rowid', postgres: 'seq' } as const satisfies Record<Dialect, string>;

/** A table keyed by its primary key alone: SQLite stores it without a rowid; PostgreSQL has none anyway. */
const keyed = (sql: Sql) => (sql.dialect === 'sqlite' ? ' WITHOUT ROWID' : '');
/** The column that keeps insertion order where the engine has no rowid. */
const sequence = (sql: Sql) => (sql.dialect === 'postgres' ? 'seq BIGSERIAL NOT NULL,' : '');

export const MIGRATIONS: readonly SqlMigration[] = [
  (sql) =>
    sql.exec(`
      CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        ${sequence(sql)}
        account TEXT NOT NULL,
        project_id TEXT NOT NULL,
        file_name TEXT NOT NULL,
        file_hash TEXT NOT NULL,
        header TEXT NOT NULL,
        mapping TEXT NOT NULL,
        shipping TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        sent_at TEXT,
        finished_at TEXT
      );
      CREATE INDEX batches_file ON batches (project_id, file_hash);
      CREATE TABLE batch_rows (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        row INTEGER NOT NULL,
        reference TEXT NOT NULL,
        cells TEXT NOT NULL,
        PRIMARY KEY (batch_id, row)
      )${keyed(sql)};
      CREATE INDEX batch_rows_reference ON batch_rows (batch_id, reference);
      CREATE TABLE batch_errors (
        ${sequence(sql)}
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        row INTEGER NOT NULL,
        column_name TEXT,
        field TEXT,
        message TEXT NOT NULL
      );
      CREATE INDEX batch_errors_row ON batch_errors (batch_id, row);
      CREATE TABLE batch_orders (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        reference TEXT NOT NULL,
        draft_id TEXT,
        skipped TEXT,
        PRIMARY KEY (batch_id, reference)
      )${keyed(sql)};
      CREATE TABLE batch_mappings (layout_key TEXT PRIMARY KEY, mapping TEXT NOT NULL, used_at TEXT NOT NULL);
      -- Progress counts a batch's drafts by state many times a second while it sends.
      CREATE INDEX IF NOT EXISTS drafts_batch ON drafts (batch_id, state);
    `),
  // Account keys in one case (see account-keys.ts).
  (sql) => lowerCaseAccountKeysIn(sql, ['batches']),
  // Shop platforms' exports: the layout read, values for every row, orders taken though not open, what
  // kind each problem is, and the project's SKU table (sku-table.ts).
  (sql) =>
    sql.exec(`
      ALTER TABLE batches ADD COLUMN layout TEXT;
      ALTER TABLE batches ADD COLUMN constants TEXT NOT NULL DEFAULT '{}';
      ALTER TABLE batches ADD COLUMN include TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE batch_errors ADD COLUMN kind TEXT NOT NULL DEFAULT 'error';
      ALTER TABLE batch_errors ADD COLUMN reason TEXT;
      ALTER TABLE batch_mappings ADD COLUMN constants TEXT NOT NULL DEFAULT '{}';
      CREATE TABLE batch_skus (
        project_id TEXT NOT NULL,
        sku_key TEXT NOT NULL,
        sku TEXT NOT NULL,
        model_id TEXT,
        skip INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (project_id, sku_key)
      )${keyed(sql)};
    `),
  // Each order's shipping as its last check quoted it (method, price, delivery window), for the review, the
  // send's confirmation and the report; and a row's cells as the file had them, kept once a fix changes
  // them, so that the file imported again is known as the same rows (earlier-order.ts).
  (sql) =>
    sql.exec(`
      CREATE TABLE batch_shipping (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        reference TEXT NOT NULL,
        method TEXT NOT NULL,
        currency TEXT NOT NULL,
        PRIMARY KEY (batch_id, reference)
      )${keyed(sql)};
      ALTER TABLE batch_rows ADD COLUMN imported_cells TEXT;
    `),
  // Team mode: who sent the batch last (account and workstation), and which process is checking and queuing
  // its send now, until when (a claim, so that two workstations sending it at once send it once: states.ts).
  (sql) =>
    sql.exec(`
      ALTER TABLE batches ADD COLUMN sent_by TEXT;
      ALTER TABLE batches ADD COLUMN send_claim TEXT;
      ALTER TABLE batches ADD COLUMN send_claim_until BIGINT NOT NULL DEFAULT 0;
    `),
];
