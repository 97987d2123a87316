import { randomUUID } from 'node:crypto';
import { insertMany } from '../storage/many-rows.ts';
import { migrateSql, placeholders, type Sql } from '../storage/sql.ts';
import type { Draft, DraftFields, DraftState, OrderEvent, PlacedOrder, Problem, ShippingMethod } from '../../contract/schemas/orders.ts';
import { batchOriginColumn, notOfPausedBatch } from './batch-origin.ts';
import { eventsOf, orderEvents, timeline, type EventDetail } from './events.ts';
import { DRAFT_ORDER, ORDERS_MIGRATIONS } from './migrations.ts';
import { announce } from './live.ts';
import { toDraft, type Row } from './draft-row.ts';
import { createRecipients } from './recipients.ts';
import { requeueSends } from './requeue.ts';

/**
 * How long a send is its workstation's alone: renewed every third of it while the answer is awaited (the
 * outbox), so only a process gone, or cut off from the store, lets it lapse; another workstation then sends it
 * again under the same reference. A third of it is what a renewal may be late by before the send is taken.
 */
export const LEASE_MS = 60_000;

export interface TransitionPatch {
  problem?: Problem | null;
  placed?: PlacedOrder | null;
  fields?: DraftFields;
  attempts?: number;
  nextAttemptAt?: number;
  /** with nextAttemptAt: the service asked for that wait (a Retry-After), which a new run keeps */
  askedToWait?: boolean;
  unanswered?: boolean;
  /** the pid of the process that takes the draft to send it */
  sender?: number;
  /** until when (ms since the epoch) this workstation has the draft out for sending; another takes it over after */
  leaseUntil?: number;
  /** queued again because the service could not be reached (see makeQueuedDue) */
  waitsForService?: boolean;
  /** held in the outbox by the user (only while queued: any other state ends it) */
  held?: boolean;
  /** why, for the order's history: the reason an attempt is tried again, a price accepted */
  note?: string;
  /** only if the draft is still at this version (a form's save: nothing another person saved is overwritten) */
  version?: number;
  /**
   * Only if this process still holds the send it claimed as this attempt (the draft's `attempts` then):
   * an answer that comes after its lease lapsed and another sender took the draft over is not written
   * over that sender's (whose own attempt, under the same reference, settles what the service holds).
   */
  heldAttempt?: number;
}

export type OrdersStore = Awaited<ReturnType<typeof createOrdersStore>>;

/** Who writes: the workstation (its sends are its own) and, for the history, the person at it. */
export interface StoreIdentity {
  /** this computer's id, the same for every program on its data folder (the app, `printdesk batch`) */
  workstation: string;
  /** "ada@shop.example on bench-2", or null when nobody is signed in */
  actor: () => string | null;
  /** how long this workstation's claim on a send lasts unrenewed (LEASE_MS; tests that kill workstations shorten it) */
  leaseMs?: number;
}

const LOCAL: StoreIdentity = { workstation: 'this-computer', actor: () => null };

/**
 * Drafts and the outbox, on the local SQLite file or a team's PostgreSQL (storage/sql.ts). Every state
 * change is a conditional update, so two senders cannot both take a draft.
 */
export async function createOrdersStore(sql: Sql, now: () => Date = () => new Date(), identity: StoreIdentity = LOCAL) {
  await migrateSql(sql, 'orders', ORDERS_MIGRATIONS);
  const { workstation } = identity;
  const leaseMs = identity.leaseMs ?? LEASE_MS;
  /** This process on this workstation, as the other workstations are told who changed a draft. */
  const sender = `${workstation}:${process.pid}`;
  const told = (tx: Sql, ids: readonly string[]) => announce(tx, sender, ids);
  const events = { ...orderEvents, record: (on: Sql, id: string, at: string, details: readonly EventDetail[]) => orderEvents.record(on, id, at, details, identity.actor()) };
  const stamp = (at = now()) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const order = `d.${DRAFT_ORDER[sql.dialect]}`;
  /** The origin column's SQL, asked of the store until its batch tables exist (`on`: SQLite's transaction must ask it). */
  let origin = 'NULL';
  const select = async (on: Sql, where: string) => {
    if (origin === 'NULL') origin = await batchOriginColumn(on);
    return `SELECT d.*, ${origin} AS origin FROM drafts d WHERE ${where}`;
  };

  async function get(id: string, on: Sql = sql): Promise<Draft | null> {
    const row = await on.get<Row>(await select(on, 'd.id = ?'), [id]);
    return row ? toDraft(row) : null;
  }

  /** `note`: where it came from, for its history ("a copy of PD-…"). `on`: a transaction to join. */
  async function create(account: string, projectId: string, fields: DraftFields, reference = `PD-${randomUUID()}`, note?: string, on: Sql = sql): Promise<Draft> {
    const id = randomUUID();
    const at = stamp();
    // The row as written, defaults included: a new draft belongs to no batch yet (a batch tags it after).
    const row = await on.transaction(async (tx) => {
      const made = await tx.get<Row>(
        `INSERT INTO drafts (id, order_reference, account, project_id, fields, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'draft', ?, ?) RETURNING *`,
        [id, reference, account, projectId, JSON.stringify(fields), at, at],
      );
      await events.record(tx, id, at, [{ kind: 'drafted', ...(note ? { message: note } : {}) }]);
      await told(tx, [id]);
      return made as Row;
    });
    return toDraft({ ...row, origin: null });
  }

  /**
   * New drafts queued at once, in `tx` (a batch's chunk) and of the batch `batchId`: a few statements however
   * many there are, each drafted and queued in its history as one placed by hand. Resolves with their ids.
   */
  async function createQueued(account: string, projectId: string, batchId: string, orders: readonly { reference: string; fields: DraftFields }[], tx: Sql): Promise<string[]> {
    if (orders.length === 0) return [];
    const at = stamp();
    const ids = orders.map(() => randomUUID());
    const rows = orders.map(({ reference, fields }, i) => [ids[i], reference, account, projectId, JSON.stringify(fields), 'queued', 0, batchId, at, at]);
    await insertMany(tx, 'drafts', ['id', 'order_reference', 'account', 'project_id', 'fields', 'state', 'next_attempt_at', 'batch_id', 'created_at', 'updated_at'], rows);
    const steps = (kind: 'drafted' | 'queued') => ids.map((draftId) => ({ draftId, at, detail: { kind } }));
    await orderEvents.recordMany(tx, [...steps('drafted'), ...steps('queued')], identity.actor());
    await told(tx, ids);
    return ids;
  }

  /** Of these drafts, the account's as they are now, and the ids no longer in the store (deleted). */
  async function some(account: string, ids: readonly string[]): Promise<{ drafts: Draft[]; gone: string[] }> {
    const rows = ids.length ? await sql.all<Row & { account: string }>(await select(sql, `d.id IN (${placeholders(ids.length)})`), ids) : [];
    const present = new Set(rows.map((row) => row.id));
    return { drafts: rows.filter((row) => row.account === account).map(toDraft), gone: ids.filter((id) => !present.has(id)) };
  }

  async function list(account: string, projectId: string): Promise<Draft[]> {
    const rows = await sql.all<Row>(`${await select(sql, 'd.account = ? AND d.project_id = ?')} ORDER BY d.updated_at DESC, ${order} DESC`, [account, projectId]);
    return rows.map(toDraft);
  }

  /** What happened to the order, oldest first. */
  async function history(id: string): Promise<OrderEvent[]> {
    const draft = await get(id);
    return draft ? timeline(draft, await events.of(sql, id)) : [];
  }

  /**
   * Moves a draft from one of `from` to `to`, or returns null when someone else moved it first.
   * `durable` commits with synchronous=FULL: for the transitions the user is told about. `on`: a
   * transaction to join (a batch's chunk).
   */
  async function transition(id: string, from: readonly DraftState[], to: DraftState, patch: TransitionPatch = {}, durable = false, on: Sql = sql): Promise<Draft | null> {
    const columns: Record<string, unknown> = { state: to, updated_at: stamp() };
    if (patch.problem !== undefined) columns.problem = patch.problem ? JSON.stringify(patch.problem) : null;
    if (patch.placed !== undefined) columns.placed = patch.placed ? JSON.stringify(patch.placed) : null;
    if (patch.fields !== undefined) columns.fields = JSON.stringify(patch.fields);
    if (patch.attempts !== undefined) columns.attempts = patch.attempts;
    if (patch.nextAttemptAt !== undefined) Object.assign(columns, { next_attempt_at: patch.nextAttemptAt, asked_to_wait: patch.askedToWait ? 1 : 0 });
    if (patch.unanswered !== undefined) columns.unanswered = patch.unanswered ? 1 : 0;
    if (patch.sender !== undefined) columns.sender_pid = patch.sender;
    if (patch.leaseUntil !== undefined) Object.assign(columns, { claimed_by: workstation, lease_until: patch.leaseUntil });
    else if (to !== 'sending') columns.lease_until = 0;
    if (patch.waitsForService !== undefined) columns.waits_for_service = patch.waitsForService ? 1 : 0;
    if (patch.held !== undefined || to !== 'queued') columns.held = patch.held && to === 'queued' ? 1 : 0;
    // Every change counts the draft's version up: a form saved from an older one is told (team mode).
    const sets = [...Object.keys(columns).map((column) => `${column} = ?`), 'version = version + 1'];
    const atVersion = patch.version === undefined ? '' : ` AND version = ${Math.trunc(patch.version)}`;
    const held = patch.heldAttempt === undefined ? '' : ` AND claimed_by = ? AND sender_pid = ? AND attempts = ${Math.trunc(patch.heldAttempt)}`;
    const text = `UPDATE drafts SET ${sets.join(', ')} WHERE id = ? AND state IN (${placeholders(from.length)})${atVersion}${held} RETURNING *`;
    const heldBy = patch.heldAttempt === undefined ? [] : [workstation, process.pid];
    // The change and what it adds to the order's history in one transaction: neither is ever kept without the other.
    // The draft returned is the row as this change left it, with the batch it came from as read before it
    // (no transition moves a draft to another batch).
    return on.transaction(
      async (tx) => {
        const before = await tx.get<Row>(await select(tx, 'd.id = ?'), [id]);
        const after = before && (await tx.get<Row>(text, [...Object.values(columns), id, ...from, ...heldBy]));
        if (!before || !after) return null;
        await events.record(tx, id, columns.updated_at as string, eventsOf(before, to, patch));
        await told(tx, [id]);
        return toDraft({ ...after, origin: before.origin });
      },
      { durable },
    );
  }

  async function remove(id: string, allowed: readonly DraftState[]): Promise<boolean> {
    return sql.transaction(async (tx) => {
      const removed = (await tx.run(`DELETE FROM drafts WHERE id = ? AND state IN (${placeholders(allowed.length)})`, [id, ...allowed])) > 0;
      if (removed) await events.forget(tx, id);
      if (removed) await told(tx, [id]);
      return removed;
    });
  }

  /** Queued drafts of these batches (paused ones) wait; everything else queued may go. */
  const notHeld = (heldBatches: readonly string[]) => (heldBatches.length ? `(batch_id IS NULL OR batch_id NOT IN (${placeholders(heldBatches.length)}))` : 'TRUE');

  /**
   * The account's queued draft whose turn has come, oldest first. Only the signed-in account's: another
   * account's drafts wait for it to sign in again (the service keys a reference to the account).
   */
  async function nextDue(atMs: number, account: string, heldBatches: readonly string[] = []): Promise<Draft | null> {
    const row = await sql.get<{ id: string }>(
      `SELECT id FROM drafts d WHERE account = ? AND state = 'queued' AND held = 0 AND next_attempt_at <= ? AND ${notHeld(heldBatches)} ORDER BY next_attempt_at, ${order} LIMIT 1`,
      [account, atMs, ...heldBatches],
    );
    return row ? get(row.id) : null;
  }

  /**
   * Takes the account's queued draft whose turn has come for sending, until `leaseUntil`: no other sender
   * (another program here, another workstation on a team's store) takes it meanwhile. On PostgreSQL the row
   * is locked as it is chosen, and rows another workstation is choosing are skipped, not waited for.
   */
  async function claimNext(atMs: number, account: string, heldBatches: readonly string[], leaseUntil: number): Promise<Draft | null> {
    const lock = sql.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
    // Asked of the store before the transaction: a statement on `sql` inside it would wait for it (SQLite).
    const notPaused = await notOfPausedBatch(sql);
    return sql.transaction(async (tx) => {
      const row = await tx.get<{ id: string; attempts: number }>(
        `SELECT id, attempts FROM drafts d WHERE account = ? AND state = 'queued' AND held = 0 AND next_attempt_at <= ? AND ${notHeld(heldBatches)} AND ${notPaused} ORDER BY next_attempt_at, ${order} LIMIT 1${lock}`,
        [account, atMs, ...heldBatches],
      );
      return row ? transition(row.id, ['queued'], 'sending', { attempts: row.attempts + 1, sender: process.pid, leaseUntil }, false, tx) : null;
    });
  }

  /** Keeps this process's sends its own for a while longer: it is alive and still waiting for the service. */
  function renewLeases(leaseUntil: number): Promise<number> {
    return sql.run(`UPDATE drafts SET lease_until = ? WHERE state = 'sending' AND claimed_by = ? AND sender_pid = ?`, [leaseUntil, workstation, process.pid]);
  }

  /** When the account's next queued draft (not held) becomes due, for the runner's timer. */
  async function nextWakeAt(account: string, heldBatches: readonly string[] = []): Promise<number | null> {
    const row = await sql.get<{ at: number | null }>(
      `SELECT MIN(next_attempt_at) AS at FROM drafts d WHERE account = ? AND state = 'queued' AND held = 0 AND ${notHeld(heldBatches)} AND ${await notOfPausedBatch(sql)}`,
      [account, ...heldBatches],
    );
    return row?.at ?? null;
  }

  const requeueInterrupted = (sendingHere?: Pick<ReadonlySet<string>, 'has'>, isAlive?: (pid: number) => boolean) =>
    requeueSends({ sql, now, stamp, workstation, record: events.record, told }, sendingHere, isAlive);

  /**
   * The service is back: what waited for it may go now rather than at its backoff time. Not what waits out
   * a 429's Retry-After or a 5xx: the service answered those, and sending them at once brings the 429 back.
   */
  function makeQueuedDue(): Promise<number> {
    return sql.transaction(async (tx) => {
      const changes = await tx.run(`UPDATE drafts SET next_attempt_at = 0 WHERE state = 'queued' AND next_attempt_at > 0 AND waits_for_service = 1`);
      if (changes) await told(tx, []);
      return changes;
    });
  }

  /**
   * The service's latest word on a placed order (status changes after placing). A new status goes into the
   * order's history, at the time the service gives for it (`reportedAt`) when it gives one.
   */
  async function updatePlaced(id: string, placed: PlacedOrder, note?: { reportedAt?: string | null; message?: string }): Promise<Draft | null> {
    const previous = await sql.get<{ placed: string | null }>(`SELECT placed FROM drafts WHERE id = ? AND state = 'placed'`, [id]);
    if (!previous) return null;
    const before = previous.placed ? (JSON.parse(previous.placed) as PlacedOrder).status : undefined;
    const at = stamp();
    await sql.transaction(async (tx) => {
      await tx.run(`UPDATE drafts SET placed = ?, updated_at = ? WHERE id = ? AND state = 'placed'`, [JSON.stringify(placed), at, id]);
      await told(tx, [id]);
      if (placed.status === before) return;
      const message = note?.message ? { message: note.message } : {};
      await events.record(tx, id, note?.reportedAt ?? at, [{ kind: 'status', status: placed.status, ...(before ? { previous: before } : {}), ...message }]);
    });
    return get(id);
  }

  async function ownerOf(id: string): Promise<string | null> {
    return (await sql.get<{ account: string }>('SELECT account FROM drafts WHERE id = ?', [id]))?.account ?? null;
  }

  /** The batch a draft was made by, or null for a single order. */
  async function batchOf(id: string): Promise<string | null> {
    return (await sql.get<{ batch_id: string | null }>('SELECT batch_id FROM drafts WHERE id = ?', [id]))?.batch_id ?? null;
  }

  /** Orders held back only because the session had expired go back in the queue. */
  async function requeueHeldForSession(account: string): Promise<number> {
    const waiting = `account = ? AND state = 'needs-attention' AND problem LIKE '%"kind":"session-expired"%'`;
    return sql.transaction(
      async (tx) => {
        const ids = await tx.all<{ id: string }>(`SELECT id FROM drafts WHERE ${waiting}`, [account]);
        const at = stamp();
        for (const { id } of ids) await events.record(tx, id, at, [{ kind: 'queued', message: 'Back in the outbox now that you are signed in again' }]);
        if (ids.length) await told(tx, ids.map(({ id }) => id));
        return tx.run(`UPDATE drafts SET state = 'queued', problem = NULL, next_attempt_at = 0 WHERE ${waiting}`, [account]);
      },
      { durable: true },
    );
  }

  async function countByState(account: string, projectId: string): Promise<Record<DraftState, number>> {
    const counts = { draft: 0, queued: 0, sending: 0, placed: 0, rejected: 0, 'needs-attention': 0 } as Record<DraftState, number>;
    const rows = await sql.all<{ state: DraftState; n: number }>('SELECT state, COUNT(*) AS n FROM drafts WHERE account = ? AND project_id = ? GROUP BY state', [account, projectId]);
    for (const row of rows) counts[row.state] = Number(row.n);
    return counts;
  }

  /** The account's orders still to be sent, in every project and in `projectId`'s: queued (held or waiting) or on their way. */
  async function waitingOf(account: string, projectId: string | null = null): Promise<{ orders: number; projects: number; here: number }> {
    const row = await sql.get<{ n: number; projects: number; here: number | null }>(
      `SELECT COUNT(*) AS n, COUNT(DISTINCT project_id) AS projects, SUM(CASE WHEN project_id = ? THEN 1 ELSE 0 END) AS here
       FROM drafts WHERE account = ? AND state IN ('queued', 'sending')`,
      [projectId ?? '', account],
    );
    return { orders: Number(row?.n ?? 0), projects: Number(row?.projects ?? 0), here: Number(row?.here ?? 0) };
  }

  const countWaiting = async (account: string) => (await waitingOf(account)).orders;

  const recipients = createRecipients(sql, stamp);

  return { sql, workstation, sender, leaseMs, get, some, create, createQueued, list, history, transition, remove, nextDue, claimNext, renewLeases, nextWakeAt, requeueInterrupted, requeueHeldForSession, makeQueuedDue, updatePlaced, ownerOf, batchOf, countByState, countWaiting, waitingOf, recipients };
}

export type { ShippingMethod };
