// The orders domain's schema steps (docs/storage.md): drafts and the outbox, the address book, and each
// order's history. Written once for both engines (storage/sql.ts): SQLite reads BIGINT as its INTEGER.
import type { SqlMigration } from '../storage/sql.ts';
import { lowerCaseAccountKeysIn } from '../storage/account-keys.ts';

/** A draft's place in insertion order, which breaks ties between drafts stamped in the same second. */
export const DRAFT_ORDER = { sqlite: 'rowid', postgres: 'seq' } as const;

export const ORDERS_MIGRATIONS: readonly SqlMigration[] = [
  (sql) =>
    sql.exec(`
      CREATE TABLE drafts (
        id TEXT PRIMARY KEY,
        ${sql.dialect === 'postgres' ? 'seq BIGSERIAL NOT NULL,' : ''}
        order_reference TEXT NOT NULL UNIQUE,
        account TEXT NOT NULL,
        project_id TEXT NOT NULL,
        fields TEXT NOT NULL,
        state TEXT NOT NULL,
        problem TEXT,
        placed TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL DEFAULT 0,
        batch_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX drafts_due ON drafts (state, next_attempt_at);
      CREATE INDEX drafts_owner ON drafts (account, project_id, updated_at);
      CREATE TABLE recipients (
        account TEXT NOT NULL,
        key TEXT NOT NULL,
        recipient TEXT NOT NULL,
        used_at TEXT NOT NULL,
        PRIMARY KEY (account, key)
      );
    `),
  // An attempt went out and its answer was lost: the service may hold the order. Until it is asked, the
  // draft cannot be held back, edited or deleted.
  (sql) => sql.exec('ALTER TABLE drafts ADD COLUMN unanswered INTEGER NOT NULL DEFAULT 0'),
  // Account keys in one case (see account-keys.ts).
  (sql) => lowerCaseAccountKeysIn(sql, ['drafts', 'recipients']),
  // The process sending a draft: another program on the same database (the app and `printdesk batch`)
  // must not take a send it has under way for one cut short by a crash.
  (sql) => sql.exec('ALTER TABLE drafts ADD COLUMN sender_pid INTEGER'),
  // Why a queued draft waits: only a wait for the service to be reachable ends when it is back; a 429's
  // Retry-After or a 5xx backoff still holds.
  (sql) => sql.exec('ALTER TABLE drafts ADD COLUMN waits_for_service INTEGER NOT NULL DEFAULT 0'),
  // Each order's history for its page (drafted, queued, every send attempt and its outcome, the service's
  // statuses), and queued orders the user holds in the outbox.
  (sql) =>
    sql.exec(`
      CREATE TABLE order_events (
        id ${sql.dialect === 'postgres' ? 'BIGSERIAL' : 'INTEGER'} PRIMARY KEY,
        draft_id TEXT NOT NULL,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL
      );
      CREATE INDEX order_events_draft ON order_events (draft_id, id);
      ALTER TABLE drafts ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
    `),
  // Team mode: which workstation has a draft out for sending and until when (its lease: once it lapses,
  // another workstation takes the send over under the same reference), each draft's version (every change
  // counts it up), and who did each step of an order's history.
  (sql) =>
    sql.exec(`
      ALTER TABLE drafts ADD COLUMN claimed_by TEXT;
      ALTER TABLE drafts ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE drafts ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE order_events ADD COLUMN actor TEXT;
    `),
  // A queued draft whose wait the service asked for (a Retry-After): a new run keeps it, where it starts
  // its own backoffs afresh.
  (sql) => sql.exec('ALTER TABLE drafts ADD COLUMN asked_to_wait INTEGER NOT NULL DEFAULT 0'),
];
