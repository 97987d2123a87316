/**
 * `run` for a stream of triggers: at once for the first, then at most once every `gapMs`, with one run after
 * the last trigger so the final state is always fetched. Triggers in between fold into that one run.
 */
export function coalesced(run: () => void, gapMs: number, now: () => number = Date.now): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = -Infinity;
  return () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      last = now();
      run();
    }, Math.max(0, last + gapMs - now()));
  };
}
