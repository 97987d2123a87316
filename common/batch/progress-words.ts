// A sending batch's times in words, for the CLI's progress line and the Batch view alike.

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Why nothing is being sent: the time left is unknown then, the wait is what can be said. */
export function waitingText(waiting: { until: string; forService: boolean }, now: number = Date.now()): string {
  if (waiting.forService) return 'waiting for the service to be reachable';
  return `the service asked to wait (a rate limit or a failure): next try in ${formatSeconds(Math.max(1, (Date.parse(waiting.until) - now) / 1000))}`;
}
