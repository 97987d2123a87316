// Large byte arrays of browser mode's results (a model's file for its preview) wait here to be fetched
// over HTTP instead of riding in the WebSocket frame: Chromium assembles a WebSocket message on the page's
// main thread in one task (1.6 s for 100 MB here, and the model worker's start waited seconds more behind
// it), where a fetched body arrives in the background. Each token is random, good for one fetch, and
// forgotten after a minute if nobody comes for it.
import { randomBytes } from 'node:crypto';

const KEPT_MS = 60_000;

export interface Parking {
  /** Keeps the bytes and returns the token that fetches them once. */
  park(bytes: Uint8Array): string;
  /** The bytes of a token, which is then spent; undefined for a spent, expired or made-up one. */
  take(token: string): Uint8Array | undefined;
  clear(): void;
}

export function createParking(keptMs = KEPT_MS): Parking {
  const parked = new Map<string, { bytes: Uint8Array; timer: ReturnType<typeof setTimeout> }>();
  return {
    park(bytes) {
      const token = randomBytes(16).toString('hex');
      const timer = setTimeout(() => parked.delete(token), keptMs);
      timer.unref?.();
      parked.set(token, { bytes, timer });
      return token;
    },
    take(token) {
      const entry = parked.get(token);
      if (!entry) return undefined;
      parked.delete(token);
      clearTimeout(entry.timer);
      return entry.bytes;
    },
    clear() {
      for (const { timer } of parked.values()) clearTimeout(timer);
      parked.clear();
    },
  };
}
