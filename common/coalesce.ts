/** A trigger made by `coalesced`; `cancel` drops the run waiting, if any (its owner stops). */
export type Coalesced = (() => void) & { cancel(): void };

/**
 * `run` for a stream of triggers: at once for the first, then at most once every `gapMs`, with one run after
 * the last trigger so the final state is always fetched. Triggers in between fold into that one run.
 */
export function coalesced(run: () => void, gapMs: number, now: () => number = Date.now): Coalesced {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = -Infinity;
  const trigger = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      last = now();
      run();
    }, Math.max(0, last + gapMs - now()));
  };
  return Object.assign(trigger, {
    cancel: () => {
      clearTimeout(timer);
      timer = undefined;
    },
  });
}
