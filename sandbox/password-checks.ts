// Password checks (scrypt: 16 MiB and tens of milliseconds each, on Node's four worker threads) run a few
// at a time. Many sign-ins at once, each with another e-mail to slip past the per-address rate limit,
// would otherwise hold every worker thread (and the file system work that shares them); past a short
// line of waiting checks the sandbox answers 429 with Retry-After, as for any rate limit.
import PQueue from 'p-queue';
import { ApiError } from './http.ts';

export interface PasswordCheckLimits {
  /** checks running at once */
  concurrent: number;
  /** checks waiting for one of those; one more is answered 429 */
  waiting: number;
}

export const DEFAULT_PASSWORD_CHECKS: PasswordCheckLimits = { concurrent: 2, waiting: 16 };

export interface PasswordChecks {
  run<T>(check: () => Promise<T>): Promise<T>;
}

export function createPasswordChecks(limits: PasswordCheckLimits = DEFAULT_PASSWORD_CHECKS): PasswordChecks {
  const queue = new PQueue({ concurrency: limits.concurrent });
  return {
    run(check) {
      if (queue.size >= limits.waiting) {
        return Promise.reject(new ApiError(429, 'RATE_LIMITED', 'Too many sign-ins are being checked at once; retry in 1 s', { 'Retry-After': '1' }));
      }
      return queue.add(check);
    },
  };
}
