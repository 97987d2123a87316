// Turning a batch's valid orders into queued drafts, in durable chunks. Idempotent: a reference
// this batch already holds is reused (a re-send after a crash or a cancel), a draft another batch left
// unsent (it was cancelled) is taken over, and a reference that belongs to anything else is skipped and
// reported, so the same file sent twice places nothing twice.
import type { Sql } from '../storage/sql.ts';
import type { OrdersStore } from '../orders/store.ts';
import type { DraftFields, DraftState } from '../../contract/schemas/orders.ts';
import { earlierOrderLookup, earlierSays, whereMade } from './earlier-order.ts';
import type { BatchRecord, BatchTables } from './tables.ts';
import type { ValidatedOrder } from './validate.ts';

const CHUNK = 500;

interface Existing {
  id: string;
  batch_id: string | null;
  state: DraftState;
  created_at: string;
}

export interface Enqueued {
  created: number;
  requeued: number;
  skipped: number;
}

export async function enqueue(tables: BatchTables, store: OrdersStore, batch: BatchRecord, orders: readonly ValidatedOrder[], kick: () => void, stopping: () => boolean = () => false): Promise<Enqueued> {
  const { db } = tables;
  const existingOf = db.prepare<[string], Existing>('SELECT id, batch_id, state, created_at FROM drafts WHERE order_reference = ?');
  const tagBatch = db.prepare<[string, string]>('UPDATE drafts SET batch_id = ? WHERE id = ?');
  const fileOf = db.prepare<[string], { file_name: string; created_at: string; state: string }>('SELECT file_name, created_at, state FROM batches WHERE id = ?');
  const record = db.prepare<[string, string, string | null, string | null]>(
    `INSERT INTO batch_orders (batch_id, reference, draft_id, skipped) VALUES (?, ?, ?, ?)
     ON CONFLICT (batch_id, reference) DO UPDATE SET draft_id = excluded.draft_id, skipped = excluded.skipped`,
  );
  const handOver = db.prepare<[string, string, string]>('UPDATE batch_orders SET skipped = ? WHERE batch_id = ? AND reference = ?');
  const counts: Enqueued = { created: 0, requeued: 0, skipped: 0 };
  const earlierOrder = earlierOrderLookup(db);

  /**
   * Left unplaced by a cancelled batch: a cancel returns what is queued to draft, and an order in flight
   * then may come back queued (a 429) after it. A draft the user held back from a batch that goes on is
   * theirs to place, not the next import's.
   */
  function unsentOfCancelled(existing: Existing): boolean {
    return (existing.state === 'draft' || existing.state === 'queued') && fileOf.get(existing.batch_id as string)?.state === 'cancelled';
  }

  // `tx`: the chunk's transaction, on the same SQLite connection as these tables' statements.
  async function one(order: ValidatedOrder, tx: Sql) {
    const fields: DraftFields = { recipient: order.recipient, models: order.models, shippingMethod: order.method, orderContent: order.orderContent };
    const existing = existingOf.get(order.reference);
    if (existing && existing.batch_id === batch.id) {
      if (existing.state === 'draft' && (await store.transition(existing.id, ['draft'], 'queued', { fields, problem: null, nextAttemptAt: 0 }, false, tx))) counts.requeued++;
      record.run(batch.id, order.reference, existing.id, null);
      return;
    }
    if (existing && existing.batch_id !== null && unsentOfCancelled(existing)) {
      // The batch that made it was cancelled before it was placed. This batch sends it instead, and the
      // other one's report says where it went.
      if (!(await store.transition(existing.id, [existing.state], 'queued', { fields, problem: null, nextAttemptAt: 0 }, false, tx))) return;
      tagBatch.run(batch.id, existing.id);
      handOver.run(`Sent from batch "${batch.fileName}" of ${batch.createdAt.slice(0, 10)} instead`, existing.batch_id, order.reference);
      record.run(batch.id, order.reference, existing.id, null);
      counts.requeued++;
      return;
    }
    if (existing) {
      const other = existing.batch_id ? fileOf.get(existing.batch_id) : undefined;
      const earlier = earlierOrder(batch.id, order.reference);
      record.run(batch.id, order.reference, existing.id, earlier ? earlierSays(earlier) : `Reference ${order.reference} was already used ${whereMade(other, existing.created_at)}`);
      counts.skipped++;
      return;
    }
    const draft = await store.create(batch.account, batch.projectId, fields, order.reference, undefined, tx);
    tagBatch.run(batch.id, draft.id);
    await store.transition(draft.id, ['draft'], 'queued', { nextAttemptAt: 0 }, false, tx);
    record.run(batch.id, order.reference, draft.id, null);
    counts.created++;
  }

  for (let start = 0; start < orders.length && !stopping(); start += CHUNK) {
    // One fsync per chunk: a crash keeps whole chunks or nothing of them, and a re-send fills in the rest.
    await store.sql.transaction(
      async (tx) => {
        for (const order of orders.slice(start, start + CHUNK)) await one(order, tx);
      },
      { durable: true },
    );
    kick();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return counts;
}
