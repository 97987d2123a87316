import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { durably, migrate, type Db } from '../storage/database.ts';
import type { BatchOrigin, Draft, DraftFields, DraftState, OrderEvent, PlacedOrder, Problem, Recipient, ShippingMethod } from '../../contract/schemas/orders.ts';
import { batchOriginColumn } from './batch-origin.ts';
import { createOrderEvents, eventsOf, timeline, type EventDetail } from './events.ts';
import { ORDERS_MIGRATIONS } from './migrations.ts';
import { processAlive } from './sender-lock.ts';

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
  held: number;
  /** JSON of the batch it came from (see batch-origin.ts), or null */
  origin: string | null;
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
  /** held in the outbox by the user (only while queued: any other state ends it) */
  held?: boolean;
  /** why, for the order's history: the reason an attempt is tried again, a price accepted */
  note?: string;
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
  held: row.state === 'queued' && row.held === 1,
  batch: row.origin ? (JSON.parse(row.origin) as BatchOrigin) : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export type OrdersStore = ReturnType<typeof createOrdersStore>;

/** Drafts and the outbox in SQLite. Every state change is a conditional update, so two senders cannot both take a draft. */
export function createOrdersStore(db: Db, now: () => Date = () => new Date()) {
  migrate(db, 'orders', ORDERS_MIGRATIONS);
  const events = createOrderEvents(db);
  const stamp = (at = now()) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const select = (where: string) => `SELECT d.*, ${batchOriginColumn(db)} AS origin FROM drafts d WHERE ${where}`;
  const stateOf = db.prepare<[string], { state: DraftState; attempts: number }>('SELECT state, attempts FROM drafts WHERE id = ?');
  // Transitions are built from a handful of shapes; compiling each once keeps them cheap at batch rates.
  const statements = new Map<string, Database.Statement<unknown[]>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare<unknown[]>(sql)));
    return statement;
  };

  function get(id: string): Draft | null {
    const row = prepared(select('d.id = ?')).get(id) as Row | undefined;
    return row ? toDraft(row) : null;
  }

  /** `note`: where it came from, for its history ("a copy of PD-…"). */
  function create(account: string, projectId: string, fields: DraftFields, reference = `PD-${randomUUID()}`, note?: string): Draft {
    const id = randomUUID();
    const at = stamp();
    db.transaction(() => {
      db.prepare(
        `INSERT INTO drafts (id, order_reference, account, project_id, fields, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'draft', ?, ?)`,
      ).run(id, reference, account, projectId, JSON.stringify(fields), at, at);
      events.record(id, at, [{ kind: 'drafted', ...(note ? { message: note } : {}) }]);
    })();
    return get(id) as Draft;
  }

  function list(account: string, projectId: string): Draft[] {
    return (prepared(`${select('d.account = ? AND d.project_id = ?')} ORDER BY d.updated_at DESC, d.rowid DESC`).all(account, projectId) as Row[]).map(toDraft);
  }

  /** What happened to the order, oldest first. */
  function history(id: string): OrderEvent[] {
    const draft = get(id);
    return draft ? timeline(draft, events.of(id)) : [];
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
    if (patch.held !== undefined || to !== 'queued') columns.held = patch.held && to === 'queued' ? 1 : 0;
    const sets = Object.keys(columns).map((column) => `${column} = ?`);
    const values = Object.values(columns);
    const sql = `UPDATE drafts SET ${sets.join(', ')} WHERE id = ? AND state IN (${from.map(() => '?').join(', ')})`;
    // The change and what it adds to the order's history in one transaction: neither is ever kept without the other.
    const run = () => {
      const before = stateOf.get(id);
      const changes = prepared(sql).run(...values, id, ...from).changes;
      if (changes && before) events.record(id, columns.updated_at as string, eventsOf(before, to, patch));
      return changes;
    };
    const changed = durable ? durably(db, run) : db.transaction(run)();
    return changed ? get(id) : null;
  }

  function remove(id: string, allowed: readonly DraftState[]): boolean {
    const sql = `DELETE FROM drafts WHERE id = ? AND state IN (${allowed.map(() => '?').join(', ')})`;
    return db.transaction(() => {
      const removed = db.prepare(sql).run(id, ...allowed).changes > 0;
      if (removed) events.forget(id);
      return removed;
    })();
  }

  /** Queued drafts of these batches (paused ones) wait; everything else queued may go. */
  const NOT_HELD = `(batch_id IS NULL OR batch_id NOT IN (SELECT value FROM json_each(?)))`;

  /**
   * The account's queued draft whose turn has come, oldest first. Only the signed-in account's: another
   * account's drafts wait for it to sign in again (the service keys a reference to the account).
   */
  function nextDue(atMs: number, account: string, heldBatches: readonly string[] = []): Draft | null {
    const row = db
      .prepare<[string, number, string], { id: string }>(`SELECT id FROM drafts WHERE account = ? AND state = 'queued' AND held = 0 AND next_attempt_at <= ? AND ${NOT_HELD} ORDER BY next_attempt_at, rowid LIMIT 1`)
      .get(account, atMs, JSON.stringify(heldBatches));
    return row ? get(row.id) : null;
  }

  /** When the account's next queued draft (not held) becomes due, for the runner's timer. */
  function nextWakeAt(account: string, heldBatches: readonly string[] = []): number | null {
    const row = db
      .prepare<[string, string], { at: number | null }>(`SELECT MIN(next_attempt_at) AS at FROM drafts WHERE account = ? AND state = 'queued' AND held = 0 AND ${NOT_HELD}`)
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
    const attempt = db.prepare<[string], { attempts: number }>('SELECT attempts FROM drafts WHERE id = ?');
    const interrupted = (id: string): EventDetail => ({
      kind: 'attempt',
      attempt: attempt.get(id)?.attempts ?? 0,
      outcome: 'interrupted',
      message: 'PrintDesk stopped before the service answered; it is sent again under the same reference, so it cannot be placed twice.',
    });
    return durably(db, () =>
      cut.reduce((changes, row) => {
        const changed = requeue.run(row.id).changes;
        if (changed) events.record(row.id, stamp(), [interrupted(row.id)]);
        return changes + changed;
      }, 0),
    );
  }

  /**
   * The service is back: what waited for it may go now rather than at its backoff time. Not what waits out
   * a 429's Retry-After or a 5xx: the service answered those, and sending them at once brings the 429 back.
   */
  function makeQueuedDue(): number {
    return db.prepare(`UPDATE drafts SET next_attempt_at = 0 WHERE state = 'queued' AND next_attempt_at > 0 AND waits_for_service = 1`).run().changes;
  }

  /**
   * The service's latest word on a placed order (status changes after placing). A new status goes into the
   * order's history, at the time the service gives for it (`reportedAt`) when it gives one.
   */
  function updatePlaced(id: string, placed: PlacedOrder, note?: { reportedAt?: string | null; message?: string }): Draft | null {
    const previous = db.prepare<[string], { placed: string | null }>(`SELECT placed FROM drafts WHERE id = ? AND state = 'placed'`).get(id);
    if (!previous) return null;
    const before = previous.placed ? (JSON.parse(previous.placed) as PlacedOrder).status : undefined;
    const at = stamp();
    db.transaction(() => {
      db.prepare(`UPDATE drafts SET placed = ?, updated_at = ? WHERE id = ? AND state = 'placed'`).run(JSON.stringify(placed), at, id);
      if (placed.status === before) return;
      const message = note?.message ? { message: note.message } : {};
      events.record(id, note?.reportedAt ?? at, [{ kind: 'status', status: placed.status, ...(before ? { previous: before } : {}), ...message }]);
    })();
    return get(id);
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
    const waiting = `account = ? AND state = 'needs-attention' AND json_extract(problem, '$.kind') = 'session-expired'`;
    return durably(db, () => {
      const ids = db.prepare<[string], { id: string }>(`SELECT id FROM drafts WHERE ${waiting}`).all(account);
      const at = stamp();
      for (const { id } of ids) events.record(id, at, [{ kind: 'queued', message: 'Back in the outbox now that you are signed in again' }]);
      return db.prepare(`UPDATE drafts SET state = 'queued', problem = NULL, next_attempt_at = 0 WHERE ${waiting}`).run(account).changes;
    });
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

  return { get, create, list, history, transition, remove, nextDue, nextWakeAt, requeueInterrupted, requeueHeldForSession, makeQueuedDue, updatePlaced, ownerOf, batchOf, countByState, countWaiting, recipients };
}

export type { ShippingMethod };
