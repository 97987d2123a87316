// Fixed-window rate limits per endpoint and caller. A window opens at a caller's first request
// (not on a global clock edge), so X-RateLimit-Reset is simply the seconds left in that window.
// Counters live in memory: a restart forgives everyone, which is acceptable for a sandbox.

export interface RateLimitRule {
  /** requests allowed per window */
  limit: number;
  windowSeconds: number;
}

/** Rules keyed by endpoint id ("Auth/Login", "Project/GetProjects", …); `default` covers the rest. */
export interface RateLimitConfig {
  default: RateLimitRule;
  [endpoint: string]: RateLimitRule;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  default: { limit: 600, windowSeconds: 60 },
  // Keyed by client IP + e-mail: slows password guessing without locking out a whole office.
  'Auth/Login': { limit: 60, windowSeconds: 60 },
  // And by client IP alone, so that a new e-mail with each try does not escape the one above.
  'Auth/Login:ip': { limit: 300, windowSeconds: 60 },
  'Auth/RefreshToken': { limit: 120, windowSeconds: 60 },
  // One request per chunk: a large upload in small chunks must not run into the default.
  'Model3D/AppendUpload': { limit: 3000, windowSeconds: 60 },
};

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfterSeconds: number;
}

interface Window {
  startedMs: number;
  count: number;
}

export interface RateLimiter {
  take(endpoint: string, caller: string): RateDecision;
  reset(): void;
}

export function createRateLimiter(overrides: Partial<RateLimitConfig> = {}, now: () => number = Date.now): RateLimiter {
  const rules = { ...DEFAULT_RATE_LIMITS, ...definedOnly(overrides) };
  const windows = new Map<string, Window>();
  let takesSincePrune = 0;

  function rule(endpoint: string): RateLimitRule {
    return Object.hasOwn(rules, endpoint) ? rules[endpoint] : rules.default;
  }

  function take(endpoint: string, caller: string): RateDecision {
    const { limit, windowSeconds } = rule(endpoint);
    const at = now();
    if (++takesSincePrune >= 1000) prune(at);
    const key = `${endpoint}\u0000${caller}`;
    let window = windows.get(key);
    if (!window || at - window.startedMs >= windowSeconds * 1000) {
      window = { startedMs: at, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    const allowed = window.count <= limit;
    const resetSeconds = Math.max(1, Math.ceil((window.startedMs + windowSeconds * 1000 - at) / 1000));
    return {
      allowed,
      retryAfterSeconds: resetSeconds,
      headers: {
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': String(Math.max(0, limit - window.count)),
        'X-RateLimit-Reset': String(resetSeconds),
      },
    };
  }

  function prune(at: number): void {
    takesSincePrune = 0;
    for (const [key, window] of windows) {
      const endpoint = key.slice(0, key.indexOf('\u0000'));
      if (at - window.startedMs >= rule(endpoint).windowSeconds * 1000) windows.delete(key);
    }
  }

  return { take, reset: () => windows.clear() };
}

function definedOnly(overrides: Partial<RateLimitConfig>): Record<string, RateLimitRule> {
  const result: Record<string, RateLimitRule> = {};
  for (const [endpoint, rule] of Object.entries(overrides)) {
    if (!rule) continue;
    if (!(rule.limit >= 0) || !(rule.windowSeconds > 0)) throw new Error(`Invalid rate limit for ${endpoint}`);
    result[endpoint] = rule;
  }
  return result;
}
