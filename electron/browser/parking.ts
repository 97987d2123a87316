// Large byte arrays of browser mode's results (a model's file for its preview) wait here to be fetched
// over HTTP instead of riding in the WebSocket frame: Chromium assembles a WebSocket message on the page's
// main thread in one task (1.6 s for 100 MB here, and the model worker's start waited seconds more behind
// it), where a fetched body arrives in the background. Each token is random and good for one fetch; the
// arrays of a connection go when it closes, any are forgotten after a minute, and the oldest make room
// when more than MAX_PARKED_BYTES wait (a page reloaded while fetching must not pile up models in memory).
import { randomBytes } from 'node:crypto';

const KEPT_MS = 60_000;
export const MAX_PARKED_BYTES = 1024 ** 3;

export interface Parking {
  /** Keeps the bytes for `owner` (a connection) and returns the token that fetches them once. */
  park(bytes: Uint8Array, owner: object): string;
  /** The bytes of a token, which is then spent; undefined for a spent, expired or made-up one. */
  take(token: string): Uint8Array | undefined;
  /** Forgets what `owner` left unfetched. */
  drop(owner: object): void;
  clear(): void;
}

interface Parked {
  bytes: Uint8Array;
  owner: object;
  timer: ReturnType<typeof setTimeout>;
}

export function createParking(keptMs = KEPT_MS, maxBytes = MAX_PARKED_BYTES): Parking {
  const parked = new Map<string, Parked>();
  let total = 0;
  const forget = (token: string): Parked | undefined => {
    const entry = parked.get(token);
    if (!entry) return undefined;
    parked.delete(token);
    clearTimeout(entry.timer);
    total -= entry.bytes.byteLength;
    return entry;
  };
  return {
    park(bytes, owner) {
      // A Map iterates in insertion order: the first keys are the oldest.
      for (const oldest of parked.keys()) {
        if (total + bytes.byteLength <= maxBytes) break;
        forget(oldest);
      }
      const token = randomBytes(16).toString('hex');
      const timer = setTimeout(() => forget(token), keptMs);
      timer.unref?.();
      parked.set(token, { bytes, owner, timer });
      total += bytes.byteLength;
      return token;
    },
    take: (token) => forget(token)?.bytes,
    drop(owner) {
      for (const [token, entry] of parked) if (entry.owner === owner) forget(token);
    },
    clear() {
      for (const token of [...parked.keys()]) forget(token);
    },
  };
}
