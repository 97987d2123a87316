// How far a batch is, how fast it goes, and how many orders may be in flight at once.
import type { RateLimitInfo } from '../api/client.ts';
import type { Sql } from '../storage/sql.ts';
import type { DraftState } from '../../contract/schemas/orders.ts';
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
  waiting: BatchProgress['waiting'];
  total: number;
  done: number;
  failed: number;
  left: number;
  cancelled: number;
  skipped: number;
}

export async function countBatch(sql: Sql, batchId: string, now: number = Date.now()): Promise<Counts> {
  const rows = await sql.all<{ state: DraftState; n: number }>('SELECT state, COUNT(*) AS n FROM drafts WHERE batch_id = ? GROUP BY state', [batchId]);
  const by = (states: DraftState[]) => rows.filter((r) => states.includes(r.state)).reduce((sum, r) => sum + r.n, 0);
  const skipped = (await sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM batch_orders WHERE batch_id = ? AND skipped IS NOT NULL', [batchId]))?.n ?? 0;
  return {
    waiting: await waitingOf(sql, batchId, now),
    total: rows.reduce((sum, r) => sum + r.n, 0),
    done: by(['placed']),
    failed: by(['rejected', 'needs-attention']),
    left: by(['queued', 'sending']),
    cancelled: by(['draft']),
    skipped,
  };
}

/** See BatchProgress.waiting: a batch held up by a 429, a 5xx or an unreachable service says so, and until when. */
async function waitingOf(sql: Sql, batchId: string, now: number): Promise<BatchProgress['waiting']> {
  const row = await sql.get<{ sending: number | null; due: number | null; next: number | null; forService: number | null }>(
    `SELECT SUM(CASE WHEN state = 'sending' THEN 1 ELSE 0 END) AS sending, SUM(CASE WHEN state = 'queued' AND next_attempt_at <= ? THEN 1 ELSE 0 END) AS due,
            MIN(CASE WHEN state = 'queued' THEN next_attempt_at END) AS next, MAX(CASE WHEN state = 'queued' THEN waits_for_service END) AS "forService"
     FROM drafts WHERE batch_id = ?`,
    [now, batchId],
  );
  if (!row || Number(row.sending) > 0 || Number(row.due) > 0 || row.next === null) return null;
  return { until: new Date(row.next).toISOString(), forService: row.forService === 1 };
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

/** Who sent the batch, and whether its send is still being checked and queued. */
export interface SendOf {
  sentBy: string | null;
  preparing: boolean;
}

export function progressOf(batchId: string, state: BatchState, counts: Counts, ratePerSecond: number, concurrency: number, send: SendOf = { sentBy: null, preparing: false }): BatchProgress {
  const rate = Number(ratePerSecond.toFixed(2));
  return {
    batchId,
    state,
    ...counts,
    ratePerSecond: rate,
    etaSeconds: counts.left === 0 ? 0 : rate > 0 ? Math.ceil(counts.left / rate) : null,
    concurrency,
    ...send,
    joined: false,
  };
}
