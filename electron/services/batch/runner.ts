// Sending batches: enqueue through the outbox, pause, resume and cancel, and join a batch another
// workstation is sending. All state is in the store, so a restart picks up where it was, and every change of
// it is conditional (states.ts), so that workstations acting on one batch at once never undo each other.
// How far each batch is, and when it is done, is the watcher's (watcher.ts).
import type { ApiClient } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import type { Orders } from '../orders/index.ts';
import { enqueue } from './enqueue.ts';
import { batchNotices } from './live.ts';
import type { BatchProgress, BatchState } from './schemas.ts';
import type { BatchStates } from './states.ts';
import type { BatchRecord, BatchTables } from './tables.ts';
import type { ValidatedOrder } from './validate.ts';
import { createWatcher } from './watcher.ts';

export interface RunnerDeps {
  tables: BatchTables;
  states: BatchStates;
  orders: Orders;
  client: () => ApiClient;
  onProgress?: (progress: BatchProgress, batch: BatchRecord) => void;
  now?: () => number;
  /** how often progress is read and concurrency tuned while a batch sends */
  tickMs?: number;
  /** batches another workstation told of (changed there): besides their progress read here */
  onTold?: (ids: string[]) => void;
}

export type Runner = ReturnType<typeof createRunner>;

export function createRunner(deps: RunnerDeps) {
  const { tables, states, orders } = deps;
  const { outbox, store } = orders;
  const watcher = createWatcher({ tables, states, outbox, client: deps.client, gone: orders.senderGone, onProgress: deps.onProgress, now: deps.now, tickMs: deps.tickMs });
  // Team mode: a batch's drafts changing here are told to the other workstations, and read here too unless
  // the tick reads them anyway; what the others tell is read once per batch, however many notices came.
  const notices = batchNotices(tables.sql, states.sender, (ids) => {
    if (!watcher.watching()) ids.forEach(watcher.observeSoon);
  });
  const stopWatchingDrafts = orders.watchChanges((draft) => draft.batch && notices.changed(draft.batch.batchId));
  let unlisten: (() => Promise<void>) | null = null;

  /** Told nothing while the listening connection was down: every batch on its way is read again. */
  async function rereadAll() {
    await watcher.hold();
    for (const state of ['sending', 'paused'] as const) for (const batch of await tables.inState(state)) watcher.observeSoon(batch.id);
  }

  async function progressOf(id: string): Promise<BatchProgress> {
    const batch = await tables.get(id);
    if (!batch) throw new HostError('INVALID_INPUT', 'No such batch');
    return watcher.progress(batch);
  }

  /** The enqueue under way, which stopping waits for (the database must not close under it). */
  let enqueuing: Promise<unknown> | null = null;
  let stopping = false;

  /** Queues the batch's valid orders and sets it sending; the caller holds its send claim (states.claim). */
  async function send(batch: BatchRecord, valid: readonly ValidatedOrder[]): Promise<BatchProgress> {
    // Marked sent before the first draft is made: should the app stop halfway, the batch can no longer be
    // edited or remapped (its references are taken), and sending it again queues the rest.
    const sentAt = batch.sentAt ?? tables.stamp();
    if (!batch.sentAt) await tables.update(batch.id, { sentAt });
    const queued = () => {
      void outbox.kick();
      // The others see its orders come in (the batch is not sending yet: its claim says it is being queued).
      notices.changed(batch.id);
    };
    const work = enqueue(store, { ...batch, sentAt }, valid, queued, () => stopping);
    enqueuing = work;
    try {
      await work;
    } finally {
      enqueuing = null;
    }
    if (stopping) return progressOf(batch.id);
    await states.move(batch.id, ['draft', 'cancelled', 'done'], 'sending', { sentAt, finishedAt: null, claimed: true });
    watcher.watch();
    return progressOf(batch.id);
  }

  /**
   * Another process sends the batch, or is checking and queuing it: this one helps (its outbox sends the same
   * queue, its view follows the batch), and should that one vanish before the batch is on its way, sends it
   * with `sendItHere` (see the watcher's `joined`).
   */
  async function join(batch: BatchRecord, sendItHere: (() => Promise<unknown>) | null): Promise<BatchProgress> {
    watcher.join(batch.id, sendItHere);
    void outbox.kick();
    return { ...(await watcher.progress(batch)), joined: true };
  }

  /** A change that another workstation may have made first: the same change again is no error. */
  async function change(batch: BatchRecord, leaving: readonly BatchState[], to: BatchState, refused: string): Promise<BatchProgress> {
    const moved = await states.move(batch.id, leaving, to);
    const now = await tables.get(batch.id);
    if (!moved && now?.state !== to) throw new HostError('INVALID_INPUT', now ? `This batch is ${now.state}; ${refused}` : 'No such batch');
    return (await watcher.observe(batch.id)) ?? progressOf(batch.id);
  }

  async function pause(batch: BatchRecord): Promise<BatchProgress> {
    // Only this batch's orders wait: single orders and other batches go on through the shared outbox. Held
    // here before it is written down; every other workstation's claims leave it out once it is (orders/batch-origin.ts).
    outbox.hold([...(await tables.inState('paused')).map((b) => b.id), batch.id]);
    try {
      return await change(batch, ['sending'], 'paused', 'only a batch that is sending can be paused');
    } finally {
      await watcher.hold();
    }
  }

  async function resume(batch: BatchRecord): Promise<BatchProgress> {
    const resumed = await change(batch, ['paused'], 'sending', 'only a paused batch can be resumed');
    await watcher.hold();
    watcher.watch();
    return resumed;
  }

  /** What is still queued goes back to draft; what is being sent finishes. The batch can be sent again. */
  async function cancel(batch: BatchRecord): Promise<BatchProgress> {
    const cancelled = await store.sql.transaction(
      async (tx) => {
        if (!(await states.move(batch.id, ['sending', 'paused'], 'cancelled', { finishedAt: tables.stamp() }, tx))) return false;
        const ids = await tx.all<{ id: string }>(`SELECT id FROM drafts WHERE batch_id = ? AND state = 'queued' AND unanswered = 0`, [batch.id]);
        for (const { id } of ids) await store.transition(id, ['queued'], 'draft', { problem: null }, false, tx);
        return true;
      },
      { durable: true },
    );
    const now = await tables.get(batch.id);
    if (!cancelled && now?.state !== 'cancelled') throw new HostError('INVALID_INPUT', `This batch is ${now?.state ?? 'gone'}; there is nothing to cancel`);
    await watcher.hold();
    return (await watcher.observe(batch.id)) ?? progressOf(batch.id);
  }

  return {
    /** A batch made or changed here that the other workstations' lists should show (an import). */
    changed: (batchId: string) => notices.changed(batchId),
    progress: (batch: BatchRecord) => watcher.progress(batch),
    onItsWay: watcher.onItsWay,
    send,
    join,
    pause,
    resume,
    cancel,
    /** Resolves once nothing of the batch is queued or being sent (for the CLI and tests). */
    settled: (batch: BatchRecord) => watcher.settled(batch),
    /** After a restart: a paused batch stays paused, a sending one is watched again; on a team's store, live. */
    async start() {
      await watcher.hold();
      if ((await tables.inState('paused')).length || (await tables.inState('sending')).length) watcher.watch();
      unlisten ??= await notices.listen(
        (ids) => {
          ids.forEach(watcher.observeSoon);
          deps.onTold?.(ids);
        },
        () => void rereadAll().catch(() => undefined),
      );
    },
    /** Stops watching, and lets an enqueue under way end at its next chunk before the database closes. */
    stop: async () => {
      stopping = true;
      stopWatchingDrafts();
      notices.stop();
      await unlisten?.().catch(() => undefined);
      unlisten = null;
      await enqueuing?.catch(() => undefined);
      await watcher.stop();
    },
  };
}
