// Turning a batch's valid orders into queued drafts, in durable chunks. Idempotent: a reference
// this batch already holds is reused (a re-send after a crash or a cancel), a draft another batch left
// unsent (it was cancelled) is taken over, and a reference that belongs to anything else is skipped and
// reported, so the same file sent twice places nothing twice.
import { placeholders, type Dialect, type Params, type Sql } from '../storage/sql.ts';
import { insertMany } from '../storage/many-rows.ts';
import type { OrdersStore } from '../orders/store.ts';
import type { DraftFields, DraftState } from '../../contract/schemas/orders.ts';
import { earlierOrders, earlierSays, whereMade } from './earlier-order.ts';
import type { BatchRecord } from './tables.ts';
import type { ValidatedOrder } from './validate.ts';

const CHUNK = 500;

/** The draft already holding a reference, and the batch that made it. */
interface Existing {
  id: string;
  order_reference: string;
  batch_id: string | null;
  state: DraftState;
  created_at: string;
  file_name: string | null;
  batch_created_at: string | null;
  batch_state: string | null;
}

/**
 * What a chunk reads before it decides: on PostgreSQL the drafts found stay locked until it commits, so that
 * another workstation cannot move one between this reading and the change made from it.
 */
const LOCK_DRAFTS = { sqlite: '', postgres: ' FOR UPDATE OF d' } as const satisfies Record<Dialect, string>;

export interface Enqueued {
  created: number;
  requeued: number;
  skipped: number;
}

export async function enqueue(store: OrdersStore, batch: BatchRecord, orders: readonly ValidatedOrder[], kick: () => void, stopping: () => boolean = () => false): Promise<Enqueued> {
  const counts: Enqueued = { created: 0, requeued: 0, skipped: 0 };

  /**
   * Left unplaced by a cancelled batch: a cancel returns what is queued to draft, and an order in flight
   * then may come back queued (a 429) after it. A draft the user held back from a batch that goes on is
   * theirs to place, not the next import's.
   */
  const unsentOfCancelled = (existing: Existing) => (existing.state === 'draft' || existing.state === 'queued') && existing.batch_state === 'cancelled';

  /** One chunk in the transaction `tx`: everything it reads and writes goes through it. */
  async function chunk(some: readonly ValidatedOrder[], tx: Sql) {
    const existing = new Map(
      (
        await tx.all<Existing>(
          `SELECT d.id, d.order_reference, d.batch_id, d.state, d.created_at, b.file_name, b.created_at AS batch_created_at, b.state AS batch_state
           FROM drafts d LEFT JOIN batches b ON b.id = d.batch_id WHERE d.order_reference IN (${placeholders(some.length)})${LOCK_DRAFTS[tx.dialect]}`,
          some.map((o) => o.reference),
        )
      ).map((e) => [e.order_reference, e]),
    );
    const heldElsewhere = [...existing.values()].filter((e) => e.batch_id !== batch.id && !(e.batch_id !== null && unsentOfCancelled(e))).map((e) => e.order_reference);
    const earlier = await earlierOrders(tx, batch.id, heldElsewhere);
    /** batch_orders' lines, written at the chunk's end: reference → [draft, why skipped]. */
    const recorded = new Map<string, [string, string | null]>();
    const tagged: string[] = [];
    /** Orders no draft holds yet: made and queued together at the chunk's end. */
    const fresh = new Map<string, DraftFields>();
    for (const order of some) {
      if (recorded.has(order.reference) || fresh.has(order.reference)) continue;
      const fields: DraftFields = { recipient: order.recipient, models: order.models, shippingMethod: order.method, orderContent: order.orderContent };
      const found = existing.get(order.reference);
      if (found && found.batch_id === batch.id) {
        if (found.state === 'draft' && (await store.transition(found.id, ['draft'], 'queued', { fields, problem: null, nextAttemptAt: 0 }, false, tx))) counts.requeued++;
        recorded.set(order.reference, [found.id, null]);
      } else if (found && found.batch_id !== null && unsentOfCancelled(found)) {
        // The batch that made it was cancelled before it was placed. This batch sends it instead, and the
        // other one's report says where it went.
        if (!(await store.transition(found.id, [found.state], 'queued', { fields, problem: null, nextAttemptAt: 0 }, false, tx))) continue;
        tagged.push(found.id);
        await tx.run('UPDATE batch_orders SET skipped = ? WHERE batch_id = ? AND reference = ?', [`Sent from batch "${batch.fileName}" of ${batch.createdAt.slice(0, 10)} instead`, found.batch_id, order.reference]);
        recorded.set(order.reference, [found.id, null]);
        counts.requeued++;
      } else if (found) {
        const other = found.file_name === null ? undefined : { file_name: found.file_name, created_at: found.batch_created_at ?? found.created_at };
        const held = earlier.get(order.reference);
        recorded.set(order.reference, [found.id, held ? earlierSays(held) : `Reference ${order.reference} was already used ${whereMade(other, found.created_at)}`]);
        counts.skipped++;
      } else {
        fresh.set(order.reference, fields);
      }
    }
    const made = await store.createQueued(batch.account, batch.projectId, batch.id, [...fresh].map(([reference, fields]) => ({ reference, fields })), tx);
    [...fresh.keys()].forEach((reference, i) => recorded.set(reference, [made[i], null]));
    counts.created += made.length;
    if (tagged.length) await tx.run(`UPDATE drafts SET batch_id = ? WHERE id IN (${placeholders(tagged.length)})`, [batch.id, ...tagged]);
    const lines: Params[] = [...recorded].map(([reference, [draft, skipped]]) => [batch.id, reference, draft, skipped]);
    await insertMany(tx, 'batch_orders', ['batch_id', 'reference', 'draft_id', 'skipped'], lines, 'ON CONFLICT (batch_id, reference) DO UPDATE SET draft_id = excluded.draft_id, skipped = excluded.skipped');
  }

  for (let start = 0; start < orders.length && !stopping(); start += CHUNK) {
    // One fsync per chunk: a crash keeps whole chunks or nothing of them, and a re-send fills in the rest.
    await store.sql.transaction((tx) => chunk(orders.slice(start, start + CHUNK), tx), { durable: true });
    kick();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return counts;
}
