// Each order's history, for its page's timeline: written by the store in the same transaction as the change
// it tells of, so that the timeline can never say more or less than what happened to the order.
import { insertMany } from '../storage/many-rows.ts';
import type { Sql } from '../storage/sql.ts';
import type { Draft, DraftState, OrderEvent, PlacedOrder, Problem } from '../../contract/schemas/orders.ts';

export type EventDetail = Omit<OrderEvent, 'at'>;

/** What a change carries that the timeline tells (a subset of the store's transition patch). */
export interface EventPatch {
  problem?: Problem | null;
  placed?: PlacedOrder | null;
  nextAttemptAt?: number;
  held?: boolean;
  /** why, in words: the reason an attempt is tried again, a price accepted */
  note?: string;
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The steps a move from `before` to `to` adds to the order's history (none for an edit of a draft, or a send starting). */
export function eventsOf(before: { state: DraftState; attempts: number }, to: DraftState, patch: EventPatch): EventDetail[] {
  const note = patch.note === undefined ? {} : { message: patch.note };
  if (before.state === 'sending') {
    const attempt = before.attempts;
    if (to === 'placed') {
      const orderId = patch.placed?.orderId || undefined;
      return [{ kind: 'attempt', attempt, outcome: 'placed' }, { kind: 'placed', attempt, ...(orderId ? { orderId } : {}) }];
    }
    if (to === 'queued') {
      const next = patch.nextAttemptAt ? { nextAttemptAt: iso(patch.nextAttemptAt) } : {};
      return [{ kind: 'attempt', attempt, outcome: 'retry', ...note, ...next }];
    }
    if (to === 'rejected' || to === 'needs-attention') return [{ kind: 'attempt', attempt, outcome: to, ...(patch.problem ? { message: patch.problem.message } : note) }];
    return [];
  }
  if (to === 'sending') return [];
  if (to === 'queued' && before.state === 'queued') {
    if (patch.held === true) return [{ kind: 'held', ...note }];
    if (patch.held === false) return [{ kind: 'released', ...note }];
    return [];
  }
  if (to === 'queued') return [{ kind: 'queued', ...note }];
  if (to === 'draft' && before.state === 'queued') return [{ kind: 'unqueued', ...note }];
  if (to === 'draft' && (before.state === 'rejected' || before.state === 'needs-attention')) return [{ kind: 'edited', ...note }];
  return [];
}

/** The history's rows, read and written through `sql`: the transaction of the change they tell of. */
export const orderEvents = {
  /** `actor`: who did it, on which workstation ("ada@shop.example on bench-2"), where known. */
  async record(sql: Sql, draftId: string, at: string, events: readonly EventDetail[], actor: string | null = null): Promise<void> {
    if (events.length === 0) return;
    // One statement for the steps of one change (an attempt and its placing): in their order, as their ids.
    const values = events.map(() => '(?, ?, ?, ?, ?)').join(', ');
    await sql.run(`INSERT INTO order_events (draft_id, at, kind, detail, actor) VALUES ${values}`, events.flatMap(({ kind, ...detail }) => [draftId, at, kind, JSON.stringify(detail), actor]));
  },
  /** Many drafts' steps in few statements (a batch's chunk), each draft's in the order given. */
  async recordMany(sql: Sql, steps: readonly { draftId: string; at: string; detail: EventDetail }[], actor: string | null = null): Promise<void> {
    const rows = steps.map(({ draftId, at, detail: { kind, ...detail } }) => [draftId, at, kind, JSON.stringify(detail), actor]);
    await insertMany(sql, 'order_events', ['draft_id', 'at', 'kind', 'detail', 'actor'], rows);
  },
  async of(sql: Sql, draftId: string): Promise<OrderEvent[]> {
    const rows = await sql.all<{ at: string; kind: OrderEvent['kind']; detail: string; actor: string | null }>('SELECT at, kind, detail, actor FROM order_events WHERE draft_id = ? ORDER BY id', [draftId]);
    return rows.map((row) => ({ ...(JSON.parse(row.detail) as Omit<OrderEvent, 'at' | 'kind'>), at: row.at, kind: row.kind, ...(row.actor ? { actor: row.actor } : {}) }));
  },
  async forget(sql: Sql, draftId: string): Promise<void> {
    await sql.run('DELETE FROM order_events WHERE draft_id = ?', [draftId]);
  },
};

/**
 * The order's history as its page shows it. Orders written before PrintDesk kept histories have none: what
 * the order itself says (when it was drafted, when placed and as what) stands in for the steps not recorded.
 */
export function timeline(draft: Draft, recorded: readonly OrderEvent[]): OrderEvent[] {
  const events = [...recorded];
  if (!events.some((e) => e.kind === 'drafted')) events.unshift({ at: draft.createdAt, kind: 'drafted' });
  if (draft.state === 'placed' && draft.order && !events.some((e) => e.kind === 'placed')) {
    const at = draft.order.createdAt ?? draft.updatedAt;
    const orderId = draft.order.orderId || undefined;
    // After its drafting whatever the clocks say, before what the service reported later.
    const after = events.findIndex((e, index) => index > 0 && e.at > at);
    events.splice(after === -1 ? events.length : after, 0, { at, kind: 'placed', ...(orderId ? { orderId } : {}) });
  }
  return events;
}
