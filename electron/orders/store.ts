import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { durably, migrate, type Db } from '../storage/database.ts';
import type { Draft, DraftFields, DraftState, PlacedOrder, Problem, Recipient, ShippingMethod } from '../schemas/orders.ts';
import { lowerCaseAccountKeys } from '../storage/account-keys.ts';
import { processAlive } from './sender-lock.ts';

const MIGRATIONS = [
  (db: Db) =>
    db.exec(`
      CREATE TABLE drafts (
        id TEXT PRIMARY KEY,
        order_reference TEXT NOT NULL UNIQUE,
        account TEXT NOT NULL,
        project_id TEXT NOT NULL,
        fields TEXT NOT NULL,
        state TEXT NOT NULL,
        problem TEXT,
        placed TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL DEFAULT 0,
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
  (db: Db) => db.exec('ALTER TABLE drafts ADD COLUMN unanswered INTEGER NOT NULL DEFAULT 0'),
  // Account keys in one case (see account-keys.ts).
  (db: Db) => lowerCaseAccountKeys(db, ['drafts', 'recipients']),
  // The process sending a draft: another program on the same database (the app and `printdesk batch`)
  // must not take a send it has under way for one cut short by a crash.
  (db: Db) => db.exec('ALTER TABLE drafts ADD COLUMN sender_pid INTEGER'),
  // Why a queued draft waits: only a wait for the service to be reachable ends when it is back; a 429's
  // Retry-After or a 5xx backoff still holds.
  (db: Db) => db.exec('ALTER TABLE drafts ADD COLUMN waits_for_service INTEGER NOT NULL DEFAULT 0'),
];

/** A send under way this long has outlived any request's timeout: its process is gone, whatever its pid shows. */
const SENDING_STALE_MS = 10 * 60_000;


interface Row {
  id: string;
  order_reference: string;
  project_id: string;
  fields: string;
  state: DraftState;
  problem: string | null;
  placed: string | null;
  attempts: number;
  unanswered: number;
  /** ms since the epoch; 0 when due */
  next_attempt_at: number;
  created_at: string;
  updated_at: string;
}

export interface TransitionPatch {
  problem?: Problem | null;
  placed?: PlacedOrder | null;
  fields?: DraftFields;
  attempts?: number;
  nextAttemptAt?: number;
  unanswered?: boolean;
  /** the pid of the process that takes the draft to send it */
  sender?: number;
  /** queued again because the service could not be reached (see makeQueuedDue) */
  waitsForService?: boolean;
}

const toDraft = (row: Row): Draft => ({
  ...(JSON.parse(row.fields) as DraftFields),
  id: row.id,
  orderReference: row.order_reference,
  projectId: row.project_id,
  state: row.state,
  problem: row.problem ? (JSON.parse(row.problem) as Problem) : null,
  order: row.placed ? (JSON.parse(row.placed) as PlacedOrder) : null,
  attempts: row.attempts,
  unanswered: row.unanswered === 1,
  nextAttemptAt: row.state === 'queued' && row.next_attempt_at > 0 ? new Date(row.next_attempt_at).toISOString() : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export type OrdersStore = ReturnType<typeof createOrdersStore>;

/** Drafts and the outbox in SQLite. Every state change is a conditional update, so two senders cannot both take a draft. */
export function createOrdersStore(db: Db, now: () => Date = () => new Date()) {
  migrate(db, 'orders', MIGRATIONS);
  const stamp = (at = now()) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const byId = db.prepare<[string], Row>('SELECT * FROM drafts WHERE id = ?');
  // Transitions are built from a handful of shapes; compiling each once keeps them cheap at batch rates.
  const statements = new Map<string, Database.Statement<unknown[]>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare<unknown[]>(sql)));
    return statement;
  };

  function get(id: string): Draft | null {
    const row = byId.get(id);
    return row ? toDraft(row) : null;
  }

  function create(account: string, projectId: string, fields: DraftFields, reference = `PD-${randomUUID()}`): Draft {
    const id = randomUUID();
    const at = stamp();
    db.prepare(
      `INSERT INTO drafts (id, order_reference, account, project_id, fields, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'draft', ?, ?)`,
    ).run(id, reference, account, projectId, JSON.stringify(fields), at, at);
    return get(id) as Draft;
  }

  function list(account: string, projectId: string): Draft[] {
    return db
      .prepare<[string, string], Row>('SELECT * FROM drafts WHERE account = ? AND project_id = ? ORDER BY updated_at DESC, rowid DESC')
      .all(account, projectId)
      .map(toDraft);
  }

  /**
   * Moves a draft from one of `from` to `to`, or returns null when someone else moved it first.
   * `durable` commits with synchronous=FULL: for the transitions the user is told about.
   */
  function transition(id: string, from: readonly DraftState[], to: DraftState, patch: TransitionPatch = {}, durable = false): Draft | null {
    const columns: Record<string, unknown> = { state: to, updated_at: stamp() };
    if (patch.problem !== undefined) columns.problem = patch.problem ? JSON.stringify(patch.problem) : null;
    if (patch.placed !== undefined) columns.placed = patch.placed ? JSON.stringify(patch.placed) : null;
    if (patch.fields !== undefined) columns.fields = JSON.stringify(patch.fields);
    if (patch.attempts !== undefined) columns.attempts = patch.attempts;
    if (patch.nextAttemptAt !== undefined) columns.next_attempt_at = patch.nextAttemptAt;
    if (patch.unanswered !== undefined) columns.unanswered = patch.unanswered ? 1 : 0;
    if (patch.sender !== undefined) columns.sender_pid = patch.sender;
    if (patch.waitsForService !== undefined) columns.waits_for_service = patch.waitsForService ? 1 : 0;
    const sets = Object.keys(columns).map((column) => `${column} = ?`);
    const values = Object.values(columns);
    const sql = `UPDATE drafts SET ${sets.join(', ')} WHERE id = ? AND state IN (${from.map(() => '?').join(', ')})`;
    const run = () => prepared(sql).run(...values, id, ...from).changes;
    const changed = durable ? durably(db, run) : run();
    return changed ? get(id) : null;
  }

  function remove(id: string, allowed: readonly DraftState[]): boolean {
    const sql = `DELETE FROM drafts WHERE id = ? AND state IN (${allowed.map(() => '?').join(', ')})`;
    return db.prepare(sql).run(id, ...allowed).changes > 0;
  }

  /** Queued drafts of these batches (paused ones) wait; everything else queued may go. */
  const NOT_HELD = `(batch_id IS NULL OR batch_id NOT IN (SELECT value FROM json_each(?)))`;

  /**
   * The account's queued draft whose turn has come, oldest first. Only the signed-in account's: another
   * account's drafts wait for it to sign in again (the service keys a reference to the account).
   */
  function nextDue(atMs: number, account: string, heldBatches: readonly string[] = []): Draft | null {
    const row = db
      .prepare<[string, number, string], Row>(`SELECT * FROM drafts WHERE account = ? AND state = 'queued' AND next_attempt_at <= ? AND ${NOT_HELD} ORDER BY next_attempt_at, rowid LIMIT 1`)
      .get(account, atMs, JSON.stringify(heldBatches));
    return row ? toDraft(row) : null;
  }

  /** When the account's next queued draft (not held) becomes due, for the runner's timer. */
  function nextWakeAt(account: string, heldBatches: readonly string[] = []): number | null {
    const row = db
      .prepare<[string, string], { at: number | null }>(`SELECT MIN(next_attempt_at) AS at FROM drafts WHERE account = ? AND state = 'queued' AND ${NOT_HELD}`)
      .get(account, JSON.stringify(heldBatches));
    return row?.at ?? null;
  }

  /**
   * After a crash: a draft left in `sending` may or may not have reached the service; send it again with its
   * reference. Only the sends no running outbox has under way (`sendingHere` are this process's): a send
   * another program still has under way would otherwise go out twice.
   */
  function requeueInterrupted(sendingHere: ReadonlySet<string> = new Set(), isAlive: (pid: number) => boolean = processAlive): number {
    const staleBefore = stamp(new Date(now().getTime() - SENDING_STALE_MS));
    const rows = db.prepare<[], { id: string; sender_pid: number | null; updated_at: string }>(`SELECT id, sender_pid, updated_at FROM drafts WHERE state = 'sending'`).all();
    const under = (row: (typeof rows)[number]) => (row.sender_pid === process.pid ? sendingHere.has(row.id) : row.sender_pid !== null && isAlive(row.sender_pid));
    const cut = rows.filter((row) => row.updated_at < staleBefore || !under(row));
    const requeue = db.prepare<[string]>(`UPDATE drafts SET state = 'queued', next_attempt_at = 0, unanswered = 1 WHERE id = ? AND state = 'sending'`);
    return durably(db, () => cut.reduce((changes, row) => changes + requeue.run(row.id).changes, 0));
  }

  /**
   * The service is back: what waited for it may go now rather than at its backoff time. Not what waits out
   * a 429's Retry-After or a 5xx: the service answered those, and sending them at once brings the 429 back.
   */
  function makeQueuedDue(): number {
    return db.prepare(`UPDATE drafts SET next_attempt_at = 0 WHERE state = 'queued' AND next_attempt_at > 0 AND waits_for_service = 1`).run().changes;
  }

  /** The service's latest word on a placed order (status changes after placing). */
  function updatePlaced(id: string, placed: PlacedOrder): Draft | null {
    const changed = db.prepare(`UPDATE drafts SET placed = ?, updated_at = ? WHERE id = ? AND state = 'placed'`).run(JSON.stringify(placed), stamp(), id).changes;
    return changed ? get(id) : null;
  }

  function ownerOf(id: string): string | null {
    return db.prepare<[string], { account: string }>('SELECT account FROM drafts WHERE id = ?').get(id)?.account ?? null;
  }

  /** Orders held back only because the session had expired go back in the queue. */
  /** The batch a draft was made by, or null for a single order. */
  function batchOf(id: string): string | null {
    return db.prepare<[string], { batch_id: string | null }>('SELECT batch_id FROM drafts WHERE id = ?').get(id)?.batch_id ?? null;
  }

  function requeueHeldForSession(account: string): number {
    const sql = `UPDATE drafts SET state = 'queued', problem = NULL, next_attempt_at = 0
      WHERE account = ? AND state = 'needs-attention' AND json_extract(problem, '$.kind') = 'session-expired'`;
    return durably(db, () => db.prepare(sql).run(account).changes);
  }

  function countByState(account: string, projectId: string): Record<DraftState, number> {
    const counts = { draft: 0, queued: 0, sending: 0, placed: 0, rejected: 0, 'needs-attention': 0 } as Record<DraftState, number>;
    const rows = db
      .prepare<[string, string], { state: DraftState; n: number }>('SELECT state, COUNT(*) AS n FROM drafts WHERE account = ? AND project_id = ? GROUP BY state')
      .all(account, projectId);
    for (const row of rows) counts[row.state] = row.n;
    return counts;
  }

  /** The account's orders still to be sent: queued (held or waiting) or on their way. */
  function countWaiting(account: string): number {
    return db.prepare<[string], { n: number }>(`SELECT COUNT(*) AS n FROM drafts WHERE account = ? AND state IN ('queued', 'sending')`).get(account)?.n ?? 0;
  }

  const recipients = {
    remember(account: string, recipient: Recipient) {
      const key = [recipient.firstName, recipient.lastName, recipient.streetAddress, recipient.postal, recipient.country]
        .map((part) => part.trim().toLowerCase())
        .join('|');
      db.prepare(
        `INSERT INTO recipients (account, key, recipient, used_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (account, key) DO UPDATE SET recipient = excluded.recipient, used_at = excluded.used_at`,
      ).run(account, key, JSON.stringify(recipient), stamp());
    },
    list(account: string, limit = 50): Recipient[] {
      return db
        .prepare<[string, number], { recipient: string }>('SELECT recipient FROM recipients WHERE account = ? ORDER BY used_at DESC LIMIT ?')
        .all(account, limit)
        .map((row) => JSON.parse(row.recipient) as Recipient);
    },
  };

  return { get, create, list, transition, remove, nextDue, nextWakeAt, requeueInterrupted, requeueHeldForSession, makeQueuedDue, updatePlaced, ownerOf, batchOf, countByState, countWaiting, recipients };
}

export type { ShippingMethod };
