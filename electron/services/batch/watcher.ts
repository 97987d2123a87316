// Following batches on their way: how far each is, said to the view; one with nothing left marked done, once,
// by whichever workstation sees it first; a waiter answered once its batch is no longer on its way; the outbox
// held for the batches paused (wherever they were paused) and tuned to the rate limit. A batch is read when
// this process is told of it (live.ts: another workstation changed it, or this one's outbox did), and every
// tick while this process sends, joins or waits for one: a workstation only showing a batch polls nothing.
import type { ApiClient } from '../api/client.ts';
import type { Outbox } from '../orders/outbox.ts';
import { concurrencyFor, countBatch, createRateMeter, DEFAULT_CONCURRENCY, progressOf } from './progress.ts';
import type { BatchProgress, BatchState } from './schemas.ts';
import { claimHeld, type BatchStates } from './states.ts';
import type { BatchRecord, BatchTables } from './tables.ts';

export interface WatcherDeps {
  tables: BatchTables;
  states: BatchStates;
  outbox: Outbox;
  client: () => ApiClient;
  /** whether a send claim's holder is known to have stopped (orders' senderGone) */
  gone: (sender: string) => boolean;
  onProgress?: (progress: BatchProgress, batch: BatchRecord) => void;
  now?: () => number;
  /** how often batches are read and concurrency tuned while this process sends, joins or waits for one */
  tickMs?: number;
}

export type Watcher = ReturnType<typeof createWatcher>;

const moving = (state: BatchState) => state === 'sending' || state === 'paused';

export function createWatcher(deps: WatcherDeps) {
  const { tables, states, outbox } = deps;
  const now = deps.now ?? Date.now;
  const meter = createRateMeter(now);
  let concurrency = DEFAULT_CONCURRENCY;
  const waiters = new Map<string, Array<(progress: BatchProgress) => void>>();
  /**
   * Batches whose send this process asked for while another process was checking and queuing it: should that
   * one vanish before its orders are all on their way (its claim lapsed, or its process is gone), this one
   * sends the batch itself, once. One that stopped on its own (closed, or refused by a check) let its claim
   * go, and its batch says why; a batch it set sending is followed to its end.
   */
  const joined = new Map<string, (() => Promise<unknown>) | null>();
  /**
   * Batches this process sends itself now that the one it joined vanished (`joined`), from that moment until
   * its own send is claimed or has stopped: a read meanwhile (the tick's and a notice's come together) finds
   * the batch on nobody's way, and must not answer the waiters as if its send had ended.
   */
  const sendingAgain = new Set<string>();
  /**
   * Reads are numbered as they begin, and each batch's join or waiter as it is registered: a read that began
   * before (the batch as it was before another workstation's claim, read while this one joined it) says
   * nothing of what the registration waits for, and must neither answer it nor end it. The next read will.
   */
  let readsBegun = 0;
  const registered = new Map<string, number>();
  const register = (id: string) => registered.set(id, ++readsBegun);
  /** Each batch's state as last read, to hold or let go the outbox when a workstation paused or resumed it. */
  const seen = new Map<string, BatchState>();

  const claimed = (batch: BatchRecord) => claimHeld(batch, now(), deps.gone);
  const onItsWay = (batch: BatchRecord) => moving(batch.state) || claimed(batch);

  async function progress(batch: BatchRecord): Promise<BatchProgress> {
    const counts = await countBatch(tables.sql, batch.id, now());
    const { ratePerSecond } = batch.state === 'sending' ? meter.measure(batch.id, counts.done + counts.failed) : { ratePerSecond: 0 };
    const preparing = !moving(batch.state) && claimed(batch);
    return progressOf(batch.id, batch.state, counts, ratePerSecond, concurrency, { sentBy: batch.sentBy, preparing });
  }

  /** The outbox holds the queued orders of every batch paused now, wherever it was paused. */
  async function hold() {
    outbox.hold((await tables.inState('paused')).map((b) => b.id));
  }

  /** A state another workstation set: the outbox follows a pause or a resume, and a batch it now sends. */
  async function noticeState(batch: BatchRecord) {
    const before = seen.get(batch.id);
    seen.set(batch.id, batch.state);
    if (moving(batch.state)) joined.delete(batch.id);
    if (before === undefined || before === batch.state) return;
    if (before === 'paused' || batch.state === 'paused') await hold();
    else if (batch.state === 'sending') void outbox.kick();
  }

  /**
   * Reads of a batch, one after another: the tick, a notice and an action may read it at once, and what each
   * says must reach the view in the order it was read (a pause read before a resume is never said after it).
   */
  const reads = new Map<string, Promise<unknown>>();
  function observe(id: string): Promise<BatchProgress | null> {
    const read = (reads.get(id) ?? Promise.resolve()).then(() => readNow(id));
    const settled = read.catch(() => undefined);
    reads.set(id, settled);
    void settled.then(() => reads.get(id) === settled && reads.delete(id));
    return read;
  }

  /** The batch as it is now, marked done when nothing of it is left; said, and its waiters answered once it is no longer on its way. */
  async function readNow(id: string): Promise<BatchProgress | null> {
    let begun = ++readsBegun;
    let batch = await tables.get(id);
    if (!batch) return null;
    let current = await progress(batch);
    if (batch.state === 'sending' && current.left === 0) {
      // Whichever workstation sees it first marks it; the others then read it done.
      if (await states.move(id, ['sending'], 'done', { finishedAt: tables.stamp() })) meter.forget(id);
      begun = ++readsBegun;
      batch = (await tables.get(id)) ?? batch;
      current = await progress(batch);
    }
    await noticeState(batch);
    deps.onProgress?.(current, batch);
    if (!onItsWay(batch) && !sendingAgain.has(id) && begun > (registered.get(id) ?? 0)) settle(batch, current);
    return current;
  }

  function settle(batch: BatchRecord, current: BatchProgress) {
    const sendItHere = joined.get(batch.id);
    joined.delete(batch.id);
    // The process it joined vanished before the batch was on its way: this one sends it, and its waiters wait on.
    if (sendItHere && batch.claimUntil > 0) {
      sendingAgain.add(batch.id);
      void sendItHere()
        .catch(() => undefined)
        .finally(() => {
          sendingAgain.delete(batch.id);
          void observe(batch.id).catch(() => undefined);
        });
      return;
    }
    waiters.get(batch.id)?.splice(0).forEach((resolve) => resolve(current));
    waiters.delete(batch.id);
    registered.delete(batch.id);
  }

  // Told of a batch: one read at a time per batch, and one more after it for whatever was told meanwhile.
  const reading = new Map<string, Promise<void>>();
  const readAgain = new Set<string>();
  function observeSoon(id: string) {
    if (reading.has(id)) return void readAgain.add(id);
    const read = observe(id)
      .then(() => undefined, () => undefined)
      .finally(() => {
        reading.delete(id);
        if (readAgain.delete(id)) observeSoon(id);
      });
    reading.set(id, read);
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

  /** Per workstation: each tunes its own outbox to what the service's rate limit tells it. */
  function setConcurrency(next: number) {
    if (next === concurrency) return;
    concurrency = next;
    outbox.setConcurrency(next);
  }

  let timer: ReturnType<typeof setInterval> | null = null;
  /** The tick under way: the next one is skipped rather than run beside it while the store is slow. */
  let ticking: Promise<void> | null = null;

  async function tick() {
    tune();
    // A paused batch's orders already on their way still finish: its counts go on moving until they have.
    const onTheirWay = [...(await tables.inState('sending')), ...(await tables.inState('paused'))];
    for (const id of new Set([...onTheirWay.map((b) => b.id), ...waiters.keys(), ...joined.keys()])) await observe(id);
    if (onTheirWay.length === 0 && waiters.size === 0 && joined.size === 0 && sendingAgain.size === 0) {
      if (timer) clearInterval(timer);
      timer = null;
      setConcurrency(DEFAULT_CONCURRENCY);
    }
  }

  function watch() {
    // Not unref'd: while a batch sends, the process (the CLI) must stay up to see it finish.
    timer ??= setInterval(() => {
      ticking ??= tick()
        .catch(() => {
          // A closed database or a failing listener must not take the process down; a send or a wait watches again.
          if (timer) clearInterval(timer);
          timer = null;
        })
        .finally(() => (ticking = null));
    }, deps.tickMs ?? 250);
  }

  return {
    progress,
    observe,
    observeSoon,
    hold,
    watch,
    /** Whether the tick runs (this process sends, joins or waits for a batch). */
    watching: () => timer !== null,
    onItsWay,
    /** This process asked to send a batch another sends, or is checking and queuing: see `joined`. */
    join(id: string, sendItHere: (() => Promise<unknown>) | null) {
      joined.set(id, sendItHere);
      register(id);
      watch();
    },
    /** Resolves once the batch is no longer on its way (done, cancelled, or its send stopped before it was). */
    settled(batch: BatchRecord): Promise<BatchProgress> {
      // One this process is to send itself (the one it joined vanished) is on its way too, though nobody claims it yet.
      if (!onItsWay(batch) && !joined.get(batch.id) && !sendingAgain.has(batch.id)) return progress(batch);
      watch();
      register(batch.id);
      return new Promise((resolve) => waiters.set(batch.id, [...(waiters.get(batch.id) ?? []), resolve]));
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      joined.clear();
      await ticking;
      await Promise.all([...reading.values(), ...reads.values()]);
    },
  };
}
