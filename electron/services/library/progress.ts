// Per-file progress for the renderer: bytes, rate and time left, throttled to at most one event per
// 100 ms per file, so a fast upload cannot flood IPC and the UI stays responsive.

import type { UploadProgress as Progress } from '../../contract/schemas/library.ts';

/** The progress of one file, as the event that carries it to the renderer. */
export type UploadProgress = Progress & { type: 'upload:progress' };

export const PROGRESS_INTERVAL_MS = 100;
// The rate is averaged over this window: long enough to be steady, short enough to follow changes.
const RATE_WINDOW_MS = 3000;

export interface ProgressMeter {
  /** `bytesSent` of the whole file; emits when the interval has passed, or always with `force` */
  update(bytesSent: number, force?: boolean): void;
}

export function createProgressMeter(id: string, sizeBytes: number, emit: (event: UploadProgress) => void, now: () => number = Date.now): ProgressMeter {
  const samples: { at: number; bytes: number }[] = [];
  let lastEmit = -Infinity;

  function rate(at: number, bytes: number): number {
    samples.push({ at, bytes });
    while (samples.length > 2 && at - samples[0].at > RATE_WINDOW_MS) samples.shift();
    const first = samples[0];
    const elapsed = at - first.at;
    // A resume restarts the count lower: measure only forward movement.
    return elapsed > 0 && bytes >= first.bytes ? ((bytes - first.bytes) * 1000) / elapsed : 0;
  }

  return {
    update(bytesSent, force = false) {
      const at = now();
      const bytesPerSecond = rate(at, bytesSent);
      if (!force && at - lastEmit < PROGRESS_INTERVAL_MS) return;
      lastEmit = at;
      const remaining = Math.max(0, sizeBytes - bytesSent);
      const etaSeconds = remaining === 0 ? 0 : bytesPerSecond > 0 ? Math.ceil(remaining / bytesPerSecond) : null;
      emit({ type: 'upload:progress', id, bytesSent, sizeBytes, bytesPerSecond: Math.round(bytesPerSecond), etaSeconds });
    },
  };
}
