// The quotes a batch check needs, fetched at the pace the service's rate limit allows. Waiting is never
// a row's problem: a 429 (whatever its Retry-After), a window used up or a 5xx holds every request until
// the service takes them again; only a definite answer about a quote (an unknown country, models it will
// not ship) is that quote's failure. A service that cannot be reached stops the whole check instead, as
// nothing can be said about any row then.
import { retryDelayMs } from '../api/backoff.ts';
import type { RateLimitInfo } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import { abortableSleep as sleep } from '../api/transport.ts';
import type { Quote } from '../../contract/schemas/orders.ts';

/** How far a batch check is: distinct quotes asked and answered, and what holds it up. */
export interface QuoteProgress {
  done: number;
  total: number;
  etaSeconds: number | null;
  /** the service asked to wait (or its window is used up) until then; null while requests go */
  waitingUntil: string | null;
}

export interface QuotePacerDeps {
  fetch: (key: string) => Promise<Quote>;
  /** what the service last said of its limit for quotes (X-RateLimit-*) */
  rateLimit: () => RateLimitInfo | undefined;
  signal?: AbortSignal;
  onProgress?: (progress: QuoteProgress) => void;
  now?: () => number;
  concurrency?: number;
  /** tries for a service that cannot be reached before the check gives up (it says so, no row is flagged) */
  unreachableTries?: number;
}

export type QuoteOutcome = { ok: true; quote: Quote } | { ok: false; message: string };

const CONCURRENCY = 4;
const PROGRESS_EVERY_MS = 250;
/** The service's answers that hold up the check rather than say anything about a quote. */
const WAITS = new Set(['RATE_LIMITED', 'INTERNAL_ERROR', 'INVALID_RESPONSE']);
const UNREACHABLE = new Set(['OFFLINE', 'TIMEOUT']);
const FAILURES_BEFORE_GIVING_UP = 4;
/** The check as a whole cannot go on: signed out, or stopped (Ctrl+C). */
const FATAL = new Set(['AUTHENTICATION', 'NOT_SIGNED_IN', 'CANCELLED']);

export async function fetchPaced(keys: readonly string[], deps: QuotePacerDeps): Promise<Map<string, QuoteOutcome>> {
  const now = deps.now ?? Date.now;
  const outcomes = new Map<string, QuoteOutcome>();
  const queue = [...keys];
  const started = now();
  let heldUntil = 0;
  let lastProgress = 0;
  let fatal: unknown = null;

  function report(force = false) {
    if (!deps.onProgress || (!force && now() - lastProgress < PROGRESS_EVERY_MS)) return;
    lastProgress = now();
    const done = outcomes.size;
    const left = keys.length - done;
    const elapsed = (now() - started) / 1000;
    const waiting = heldUntil > now() ? new Date(heldUntil).toISOString() : null;
    // From the pace so far, waits included: a fixed window's pause counts as the time it costs.
    const etaSeconds = left === 0 ? 0 : done > 0 && elapsed > 0 ? Math.ceil(left / (done / elapsed)) : null;
    deps.onProgress({ done, total: keys.length, etaSeconds: waiting && etaSeconds !== null ? Math.max(etaSeconds, (heldUntil - now()) / 1000) : etaSeconds, waitingUntil: waiting });
  }

  /** Holds every request until `until` (the longest wait asked wins). */
  const hold = (until: number) => void (heldUntil = Math.max(heldUntil, until));

  /** The window is used up (no request left in it): wait for its reset rather than run into a 429. */
  function holdForWindow() {
    const info = deps.rateLimit();
    if (info?.remaining === 0 && info.resetSeconds !== undefined) hold(now() + Math.max(1, info.resetSeconds) * 1000);
  }

  async function waitTurn() {
    while (heldUntil > now()) {
      report();
      await sleep(Math.min(heldUntil - now(), PROGRESS_EVERY_MS), deps.signal);
    }
  }

  async function one(key: string) {
    let waits = 0;
    let failures = 0;
    let unreachable = 0;
    for (;;) {
      await waitTurn();
      if (fatal) return;
      try {
        const quote = await deps.fetch(key);
        outcomes.set(key, { ok: true, quote });
        holdForWindow();
        return;
      } catch (error) {
        const code = error instanceof HostError ? error.code : null;
        if (code === null) throw error;
        if (FATAL.has(code) || deps.signal?.aborted) throw error;
        if (UNREACHABLE.has(code)) {
          if (++unreachable >= (deps.unreachableTries ?? 3)) throw error;
          hold(now() + retryDelayMs(unreachable, undefined));
          continue;
        }
        if (WAITS.has(code)) {
          const retryAfter = (error as HostError).retryAfterSeconds;
          // A 429 is the service pacing us, for as long as it takes; failures that go on are its fault, said as such.
          if (code !== 'RATE_LIMITED' && ++failures >= FAILURES_BEFORE_GIVING_UP) throw error;
          hold(now() + retryDelayMs(++waits, retryAfter, { capMs: 60_000 }));
          continue;
        }
        // The service's definite word about this quote (400, 403, 404…): the rows needing it are told.
        outcomes.set(key, { ok: false, message: error instanceof Error ? error.message : String(error) });
        return;
      }
    }
  }

  async function worker() {
    while (queue.length && !fatal) {
      const key = queue.shift() as string;
      try {
        await one(key);
      } catch (error) {
        fatal ??= error;
      }
      report();
    }
  }

  report(true);
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? CONCURRENCY, Math.max(1, keys.length)) }, worker));
  if (fatal) throw fatal;
  report(true);
  return outcomes;
}
