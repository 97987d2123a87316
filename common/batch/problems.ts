// What a batch says about a row: the kinds of problem, and where each is. Kept light: the view reads it.
import type { BatchError, SkipReason } from '../../electron/services/batch/schemas.ts';

/**
 * error: the order is held back (the service would refuse it, or the file does not say what to send);
 * warning: a rule of our own, the order goes as written; note: what PrintDesk read or left out, said;
 * skip: the order is not taken (not open on its platform, or nothing in it to print).
 */
export const PROBLEM_KINDS = ['error', 'warning', 'note', 'skip'] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

export type { BatchError, SkipReason };
