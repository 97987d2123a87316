// A worker thread that reads a 3MF whole with the shared parser (no topology) and answers whether it
// breaks the 3MF specification: parsing is synchronous, and the host's thread must keep answering the
// window meanwhile. One request at a time, from spec-check.ts.
import { basename } from 'node:path';
import { describeViolations, parseModel } from '../../../common/models/index.ts';
import { readWhole } from './read-whole.ts';
import { answerJobs } from './thread-jobs.ts';
import { zlibInflateRaw } from './zlib-inflate.ts';

export interface SpecCheckRequest {
  path: string;
}

export interface SpecCheckReply {
  /** What the file breaks, in a sentence for the user; null when it breaks nothing that counts. */
  breaches: string | null;
}

async function check(path: string): Promise<string | null> {
  try {
    const bytes = await readWhole(path);
    const { conformance } = parseModel(bytes, basename(path), { skipTopology: true, inflateRaw: zlibInflateRaw, bytesOwned: true }).facts;
    if (conformance.valid) return null;
    const errors = conformance.violations.filter((violation) => violation.severity === 'error');
    return `This 3MF breaks the 3MF specification: ${describeViolations(errors, conformance.errors)}; the service may refuse it.`;
  } catch {
    // A file the parser cannot read at all passed the upload's own checks: they decide, not this one.
    return null;
  }
}

answerJobs<SpecCheckRequest, SpecCheckReply>(async ({ path }) => ({ reply: { breaches: await check(path) } }));
