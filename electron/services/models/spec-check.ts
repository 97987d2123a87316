// Before a 3MF is uploaded: does it break the 3MF specification? A service that validates 3MF as the 3MF
// Consortium's library does refuses such a file at upload or, worse, at production; the user is told
// first and decides (a rule of the specification, not of the service: it warns, it never refuses).
// The file is read in a worker thread (spec-check-worker.ts), so the host keeps answering meanwhile.
import { Worker } from 'node:worker_threads';
import type { SpecCheckReply, SpecCheckRequest } from './spec-check-worker.ts';

/** 3MF files up to this size are read before upload (about a second); larger ones are told of in their details. */
export const SPEC_CHECK_LIMIT_BYTES = 64 * 1024 * 1024;
/** The worker is ended when no check has come for this long. */
const IDLE_MS = 10_000;

export interface SpecChecker {
  /** What `path` breaks, in a sentence, or null (it keeps the rules, is not a 3MF, or is too large to read now). */
  breaches(path: string, sizeBytes: number): Promise<string | null>;
  close(): Promise<void>;
}

/** The worker's script: the bundle's sibling when the host runs built, the source when it runs as TypeScript. */
function workerUrl(): URL {
  return new URL(import.meta.url.endsWith('.ts') ? './spec-check-worker.ts' : './spec-check-worker.mjs', import.meta.url);
}

export function createSpecChecker(): SpecChecker {
  let worker: Worker | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let nextId = 1;
  const waiting = new Map<number, (breaches: string | null) => void>();

  const end = async () => {
    clearTimeout(idle);
    const stopping = worker;
    worker = null;
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
    await stopping?.terminate();
  };

  const started = (): Worker => {
    if (worker) return worker;
    const made = new Worker(workerUrl());
    made.on('message', ({ id, breaches }: SpecCheckReply) => {
      waiting.get(id)?.(breaches);
      waiting.delete(id);
      if (waiting.size === 0) idle = setTimeout(() => void end(), IDLE_MS);
    });
    // A check that cannot run says nothing: the upload goes as it would have without it.
    made.on('error', () => void end());
    made.unref();
    worker = made;
    return made;
  };

  return {
    breaches(path, sizeBytes) {
      if (!/\.3mf$/i.test(path) || sizeBytes > SPEC_CHECK_LIMIT_BYTES) return Promise.resolve(null);
      clearTimeout(idle);
      const id = nextId++;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        started().postMessage({ id, path } satisfies SpecCheckRequest);
      });
    },
    close: end,
  };
}
