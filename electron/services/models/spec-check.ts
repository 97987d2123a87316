// Before a 3MF is uploaded: does it break the 3MF specification? A service that validates 3MF as the 3MF
// Consortium's library does refuses such a file at upload or, worse, at production; the user is told
// first and decides (a rule of the specification, not of the service: it warns, it never refuses).
// The file is read in a worker thread (spec-check-worker.ts), so the host keeps answering meanwhile.
import { createThreadJobs, siblingScript } from './thread-jobs.ts';
import type { SpecCheckReply, SpecCheckRequest } from './spec-check-worker.ts';

/** 3MF files up to this size are read before upload (about a second); larger ones are told of in their details. */
export const SPEC_CHECK_LIMIT_BYTES = 64 * 1024 * 1024;

export interface SpecChecker {
  /** What `path` breaks, in a sentence, or null (it keeps the rules, is not a 3MF, or is too large to read now). */
  breaches(path: string, sizeBytes: number): Promise<string | null>;
  close(): Promise<void>;
}

export function createSpecChecker(): SpecChecker {
  // A check that cannot run says nothing: the upload goes as it would have without it.
  const jobs = createThreadJobs<SpecCheckRequest, SpecCheckReply>(siblingScript(import.meta.url, 'spec-check-worker'), { breaches: null });
  return {
    async breaches(path, sizeBytes) {
      if (!/\.3mf$/i.test(path) || sizeBytes > SPEC_CHECK_LIMIT_BYTES) return null;
      return (await jobs.run({ path })).breaches;
    },
    close: jobs.close,
  };
}
