import type { ApiClient } from '../api/client.ts';
import type { Draft } from '../../contract/schemas/orders.ts';
import type { Quotes } from './quotes.ts';
import { orderSender } from './send-order.ts';
import type { OrdersStore } from './store.ts';

export interface OutboxDeps {
  store: OrdersStore;
  client: () => ApiClient;
  quotes: Quotes;
  /** The signed-in account, whose drafts alone are sent; null while signed out. */
  account: () => string | null;
  onChange: (draft: Draft) => void;
  onPlaced: (draft: Draft) => void;
  now?: () => number;
  concurrency?: number;
  random?: () => number;
}

/** How long stopping waits for requests already on their way to be answered and written down. */
const STOP_GRACE_MS = 5_000;

export type Outbox = ReturnType<typeof createOutbox>;

/** Drafts this process's outboxes are sending: a second host in the process must not take them as cut short. */
export const sendingHere = new Set<string>();

/** How soon to look again at a draft that is due but was not to be claimed: its claim elsewhere commits by then. */
const CLAIMED_ELSEWHERE_MS = 50;

/**
 * Sends queued drafts exactly once (each attempt: send-order.ts), as many at a time as the concurrency allows:
 * claims what is due, and wakes when the next queued draft's turn comes.
 */
export function createOutbox(deps: OutboxDeps) {
  const { store, client, quotes, account, onChange, onPlaced, now = Date.now, random = Math.random } = deps;
  let concurrency = deps.concurrency ?? 4;
  let running = 0;
  let paused = false;
  /** Batches whose queued drafts wait (paused by the user); single orders and other batches go on. */
  let held: readonly string[] = [];
  /** Set once stopping has waited its grace: the store may be closed, so late answers are not written. */
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const idle: Array<() => void> = [];
  const quiet: Array<() => void> = [];
  /**
   * Attempts made by this process, per draft: the backoff counts these, not the draft's attempts over all
   * runs, so that a run started again (after Ctrl+C, a kill, a restart) tries at once and backs off afresh.
   */
  const triesHere = new Map<string, number>();
  const send = orderSender({ store, client, quotes, onChange, onPlaced, now, random, triesHere, closed: () => closed });

  let renewing: ReturnType<typeof setInterval> | null = null;

  /** The sends under way stay this process's; with none, the timer stops until the next claim. */
  function renew() {
    if (running === 0 || closed) {
      if (renewing) clearInterval(renewing);
      renewing = null;
      return;
    }
    store.renewLeases(now() + store.leaseMs).catch(() => undefined);
  }

  // One pass at a time fills the free sending slots; a kick during a pass asks for one more after it.
  let filling: Promise<void> | null = null;
  let fillAgain = false;

  /** Sends what is due, up to the concurrency; resolves once the drafts it could take are taken. */
  function kick(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (closed) return Promise.resolve();
    if (filling) {
      fillAgain = true;
      return filling;
    }
    filling = (async () => {
      try {
        do {
          fillAgain = false;
          await fill();
        } while (fillAgain && !closed);
      } finally {
        filling = null;
      }
    })();
    return filling;
  }

  async function fill(): Promise<void> {
    const owner = account();
    while (!paused && !closed && owner !== null && running < concurrency) {
      if (closed) break;
      // NORMAL is enough here: should this mark be lost, the draft is still queued and is sent
      // again with the same reference, which the service answers with the order it already has.
      const sending = await store.claimNext(now(), owner, held, now() + store.leaseMs);
      if (!sending) break;
      renewing ??= setInterval(renew, store.leaseMs / 3);
      renewing.unref?.();
      onChange(sending);
      triesHere.set(sending.id, (triesHere.get(sending.id) ?? 0) + 1);
      running++;
      sendingHere.add(sending.id);
      void send(sending).finally(() => {
        sendingHere.delete(sending.id);
        running--;
        if (running === 0) quiet.splice(0).forEach((resolve) => resolve());
        void kick();
      });
    }
    // With every slot taken, the end of a send asks for the next pass: the store need not be asked when.
    if (running < concurrency) await wakeLater();
  }

  /** When the signed-in account's next queued draft is due; null when it has none (or nobody is signed in). */
  async function nextWake(): Promise<number | null> {
    const owner = account();
    return owner === null ? null : store.nextWakeAt(owner, held);
  }

  /**
   * Sets the timer for the next queued draft's turn. Also while sends are under way, as long as a slot is
   * free: a draft told to come back in a second must not wait for a send whose answer takes a minute.
   */
  async function wakeLater() {
    const at = await nextWake();
    // Asked while the account or the queue may have changed: a pass still to come says when it is quiet (and
    // sets the timer) itself. Resolving `drained` now could be for the account before.
    if (fillAgain) return;
    if (at === null) {
      if (running === 0) idle.splice(0).forEach((resolve) => resolve());
      return;
    }
    if (paused || closed || running >= concurrency) return;
    if (timer) clearTimeout(timer);
    // Due already, yet not claimed: another workstation is claiming it (PostgreSQL skips the rows it locks).
    const wait = at > now() ? at - now() : CLAIMED_ELSEWHERE_MS;
    timer = setTimeout(() => void kick(), wait);
    timer.unref?.();
  }

  return {
    kick,
    pause: () => void (paused = true),
    resume: () => {
      paused = false;
      void kick();
    },
    setConcurrency: (n: number) => {
      concurrency = Math.max(1, n);
      void kick();
    },
    /** Resolves when nothing is queued or sending (for tests and the CLI). */
    drained: async () => {
      // Quiet only when no pass is filling slots before the question and after it: a pass may claim a
      // draft while the store is asked.
      const quietNow = () => running === 0 && !filling;
      if (quietNow() && (await nextWake()) === null && quietNow()) return;
      await new Promise<void>((resolve) => idle.push(resolve));
    },
    /** Resolves once no send of this process is under way (pause first, or more may start meanwhile). */
    settled: (): Promise<void> => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => quiet.push(resolve))),
    /** Holds the queued drafts of these batches, and only them, until called again without them. */
    hold: (batchIds: readonly string[]) => {
      held = [...batchIds];
      void kick();
    },
    /**
     * Sends nothing more, and resolves once the requests on their way are answered and written down, or
     * after a grace period (closing the store under them would lose their answers with an error).
     */
    stop: async (graceMs = STOP_GRACE_MS): Promise<void> => {
      paused = true;
      if (timer) clearTimeout(timer);
      // The leases of the sends still awaited are renewed while they are: a send that outlives the grace is
      // left to lapse, and another workstation takes it over.
      if (running > 0) {
        let grace: ReturnType<typeof setTimeout> | undefined;
        await new Promise<void>((resolve) => {
          quiet.push(resolve);
          grace = setTimeout(resolve, graceMs);
        });
        clearTimeout(grace);
      }
      closed = true;
      if (renewing) clearInterval(renewing);
      renewing = null;
      // The last send's end asks for a pass, which reads the store: done before the store may close.
      await filling?.catch(() => undefined);
    },
  };
}
