// Sending batches: enqueue through the outbox, watch progress, tune concurrency to the rate
// limit, pause, resume and cancel. All state is in the store, so a restart picks up where it was.
import type { ApiClient } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import type { Orders } from '../orders/index.ts';
import { enqueue } from './enqueue.ts';
import { concurrencyFor, countBatch, createRateMeter, DEFAULT_CONCURRENCY, progressOf } from './progress.ts';
import type { BatchProgress } from './schemas.ts';
import type { BatchRecord, BatchTables } from './tables.ts';
import type { ValidatedOrder } from './validate.ts';

export interface RunnerDeps {
  tables: BatchTables;
  orders: Orders;
  client: () => ApiClient;
  onProgress?: (progress: BatchProgress) => void;
  now?: () => number;
  /** how often progress is read and concurrency tuned while a batch sends */
  tickMs?: number;
}

export type Runner = ReturnType<typeof createRunner>;

export function createRunner(deps: RunnerDeps) {
  const { tables, orders } = deps;
  const { outbox, store } = orders;
  const meter = createRateMeter(deps.now);
  let concurrency = DEFAULT_CONCURRENCY;
  let timer: ReturnType<typeof setInterval> | null = null;
  const waiters = new Map<string, Array<(progress: BatchProgress) => void>>();

  async function progress(batch: BatchRecord): Promise<BatchProgress> {
    const counts = await countBatch(tables.sql, batch.id);
    const { ratePerSecond } = batch.state === 'sending' ? meter.measure(batch.id, counts.done + counts.failed) : { ratePerSecond: 0 };
    return progressOf(batch.id, batch.state, counts, ratePerSecond, concurrency);
  }

  function tune() {
    let info;
    try {
      info = deps.client().rateLimit('createOrder');
    } catch {
      info = undefined;
    }
    setConcurrency(concurrencyFor(info));
  }

  function setConcurrency(next: number) {
    if (next === concurrency) return;
    concurrency = next;
    outbox.setConcurrency(next);
  }

  async function tick() {
    tune();
    const sending = await tables.inState('sending');
    for (const batch of sending) {
      let current = await progress(batch);
      if (current.left === 0) {
        await tables.update(batch.id, { state: 'done', finishedAt: tables.stamp() });
        meter.forget(batch.id);
        current = { ...current, state: 'done', etaSeconds: 0 };
        waiters.get(batch.id)?.splice(0).forEach((resolve) => resolve(current));
      }
      deps.onProgress?.(current);
    }
    // A paused batch's orders already on their way still finish: its counts go on moving until they have.
    const paused = await tables.inState('paused');
    for (const batch of paused) deps.onProgress?.(await progress(batch));
    if (sending.length === 0 && paused.length === 0) {
      if (timer) clearInterval(timer);
      timer = null;
      setConcurrency(DEFAULT_CONCURRENCY);
    }
  }

  /** The tick under way: the next one is skipped rather than run beside it while the store is slow. */
  let ticking: Promise<void> | null = null;

  function watch() {
    // Not unref'd: while a batch sends, the process (the CLI) must stay up to see it finish.
    timer ??= setInterval(() => {
      ticking ??= tick()
        .catch(() => {
          // A closed database or a failing listener must not take the process down; send/start watch again.
          if (timer) clearInterval(timer);
          timer = null;
        })
        .finally(() => (ticking = null));
    }, deps.tickMs ?? 250);
  }

  /** The enqueue under way, which stopping waits for (the database must not close under it). */
  let enqueuing: Promise<unknown> | null = null;
  let stopping = false;

  async function send(batch: BatchRecord, valid: readonly ValidatedOrder[]): Promise<BatchProgress> {
    if (batch.state === 'sending' || batch.state === 'paused') return progress(batch);
    // Marked sent before the first draft is made: should the app stop halfway, the batch can no longer be
    // edited or remapped (its references are taken), and sending it again queues the rest.
    const sentAt = batch.sentAt ?? tables.stamp();
    if (!batch.sentAt) await tables.update(batch.id, { sentAt });
    const work = enqueue(store, { ...batch, sentAt }, valid, () => void outbox.kick(), () => stopping);
    enqueuing = work;
    try {
      await work;
    } finally {
      enqueuing = null;
    }
    if (stopping) return progress((await tables.get(batch.id)) as BatchRecord);
    await tables.update(batch.id, { state: 'sending', sentAt, finishedAt: null });
    watch();
    return progress((await tables.get(batch.id)) as BatchRecord);
  }

  const pausedIds = async () => (await tables.inState('paused')).map((b) => b.id);

  async function pause(batch: BatchRecord): Promise<BatchProgress> {
    if (batch.state !== 'sending') throw new HostError('INVALID_INPUT', `This batch is ${batch.state}; only a batch that is sending can be paused`);
    // Only this batch's orders wait: single orders and other batches go on through the shared outbox.
    // Held before it is written down: no order of it may be taken for sending in between.
    outbox.hold([...(await pausedIds()), batch.id]);
    await tables.update(batch.id, { state: 'paused' });
    return progress({ ...batch, state: 'paused' });
  }

  async function resume(batch: BatchRecord): Promise<BatchProgress> {
    if (batch.state !== 'paused') throw new HostError('INVALID_INPUT', `This batch is ${batch.state}, not paused`);
    await tables.update(batch.id, { state: 'sending' });
    outbox.hold(await pausedIds());
    watch();
    return progress({ ...batch, state: 'sending' });
  }

  /** What is still queued goes back to draft; what is being sent finishes. The batch can be sent again. */
  async function cancel(batch: BatchRecord): Promise<BatchProgress> {
    if (batch.state !== 'sending' && batch.state !== 'paused') throw new HostError('INVALID_INPUT', `This batch is ${batch.state}; there is nothing to cancel`);
    await store.sql.transaction(
      async (tx) => {
        const ids = await tx.all<{ id: string }>(`SELECT id FROM drafts WHERE batch_id = ? AND state = 'queued' AND unanswered = 0`, [batch.id]);
        for (const { id } of ids) await store.transition(id, ['queued'], 'draft', { problem: null }, false, tx);
      },
      { durable: true },
    );
    await tables.update(batch.id, { state: 'cancelled', finishedAt: tables.stamp() });
    if (batch.state === 'paused') outbox.hold(await pausedIds());
    const current = await progress({ ...batch, state: 'cancelled' });
    waiters.get(batch.id)?.splice(0).forEach((resolve) => resolve(current));
    deps.onProgress?.(current);
    return current;
  }

  /** Resolves once nothing of the batch is queued or being sent (for the CLI and tests). */
  function settled(batch: BatchRecord): Promise<BatchProgress> {
    if (batch.state !== 'sending' && batch.state !== 'paused') return progress(batch);
    watch();
    return new Promise((resolve) => waiters.set(batch.id, [...(waiters.get(batch.id) ?? []), resolve]));
  }

  /** After a restart: a paused batch stays paused, a sending one is watched again. */
  async function start() {
    const paused = await pausedIds();
    outbox.hold(paused);
    if (paused.length || (await tables.inState('sending')).length) watch();
  }

  return {
    progress,
    send,
    pause,
    resume,
    cancel,
    settled,
    start,
    /** Stops watching, and lets an enqueue under way end at its next chunk before the database closes. */
    stop: async () => {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      await enqueuing?.catch(() => undefined);
      await ticking;
    },
  };
}
