/**
 * `call` shared while it runs: a second call for the same key before the first has settled gets the same
 * promise, not a second reading (or a second request to the service). Nothing is kept once it settles.
 */
export function sharedWhileRunning<T>(call: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key) => {
    const under = running.get(key);
    if (under) return under;
    const started = call(key).finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
}
