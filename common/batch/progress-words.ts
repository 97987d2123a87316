// A sending batch's times in words, for the CLI's progress line and the Batch view alike.
import { readableDuration } from '../readable-number.ts';

/** A batch's time left: at least a second, as it is only said while orders are left. */
export const formatSeconds = (seconds: number): string => readableDuration(Math.max(1, seconds));

/** Why nothing is being sent: the time left is unknown then, the wait is what can be said. */
export function waitingText(waiting: { until: string; forService: boolean }, now: number = Date.now()): string {
  if (waiting.forService) return 'waiting for the service to be reachable';
  return `the service asked to wait (a rate limit or a failure): next try in ${formatSeconds((Date.parse(waiting.until) - now) / 1000)}`;
}
