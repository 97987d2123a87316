export interface BackoffOptions {
  baseMs?: number;
  capMs?: number;
  random?: () => number;
}

/**
 * Delay before retry number `attempt` (0-based): the server's Retry-After when it gave one,
 * otherwise exponential growth with "equal jitter", so a crowd of clients does not retry in step.
 */
export function retryDelayMs(attempt: number, retryAfterSeconds: number | undefined, options: BackoffOptions = {}): number {
  const { baseMs = 500, capMs = 30_000, random = Math.random } = options;
  if (retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds) && retryAfterSeconds >= 0) {
    // A little spread on top of the server's answer keeps many waiting clients from arriving at once;
    // only a little, because Retry-After already comes in whole seconds and each one waited is lost.
    return Math.round(retryAfterSeconds * 1000 + random() * Math.min(250, baseMs / 2));
  }
  const ceiling = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
