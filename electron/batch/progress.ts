// How far a batch is, how fast it goes, and how many orders may be in flight at once.
import type { RateLimitInfo } from '../api/client.ts';
import type { Db } from '../storage/database.ts';
import type { DraftState } from '../schemas/orders.ts';
import type { BatchProgress, BatchState } from './schemas.ts';

export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;
/** Long enough to smooth over a fixed rate-limit window's burst and pause. */
const RATE_WINDOW_MS = 30_000;

/**
 * In flight never exceeds what the current rate-limit window still allows, capped at 16 and at
 * least 1 (that one finds out when the window resets, via 429 + Retry-After). Before the service
 * has said anything, a modest default.
 */
export function concurrencyFor(info: RateLimitInfo | undefined): number {
  if (info?.remaining === undefined) return DEFAULT_CONCURRENCY;
  return Math.max(1, Math.min(MAX_CONCURRENCY, info.remaining));
}

export interface Counts {
  total: number;
  done: number;
  failed: number;
  left: number;
  cancelled: number;
  skipped: number;
}

export function countBatch(db: Db, batchId: string): Counts {
  const rows = db.prepare<[string], { state: DraftState; n: number }>('SELECT state, COUNT(*) AS n FROM drafts WHERE batch_id = ? GROUP BY state').all(batchId);
  const by = (states: DraftState[]) => rows.filter((r) => states.includes(r.state)).reduce((sum, r) => sum + r.n, 0);
  const skipped = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM batch_orders WHERE batch_id = ? AND skipped IS NOT NULL').get(batchId)?.n ?? 0;
  return {
    total: rows.reduce((sum, r) => sum + r.n, 0),
    done: by(['placed']),
    failed: by(['rejected', 'needs-attention']),
    left: by(['queued', 'sending']),
    cancelled: by(['draft']),
    skipped,
  };
}

/** Rate from how many orders settled over the last half minute; the ETA follows from it. */
export function createRateMeter(now: () => number = Date.now) {
  const samples = new Map<string, { t: number; settled: number }[]>();

  function measure(batchId: string, settled: number): { ratePerSecond: number } {
    const list = samples.get(batchId) ?? [];
    const t = now();
    list.push({ t, settled });
    while (list.length > 2 && t - list[0].t > RATE_WINDOW_MS) list.shift();
    samples.set(batchId, list);
    const first = list[0];
    const span = (t - first.t) / 1000;
    return { ratePerSecond: span >= 1 ? Math.max(0, (settled - first.settled) / span) : 0 };
  }

  return { measure, forget: (batchId: string) => samples.delete(batchId) };
}

export function progressOf(batchId: string, state: BatchState, counts: Counts, ratePerSecond: number, concurrency: number): BatchProgress {
  const rate = Number(ratePerSecond.toFixed(2));
  return {
    batchId,
    state,
    ...counts,
    ratePerSecond: rate,
    etaSeconds: counts.left === 0 ? 0 : rate > 0 ? Math.ceil(counts.left / rate) : null,
    concurrency,
  };
}
