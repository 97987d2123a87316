// What a batch says about a row: the kinds of problem, and where each is. Kept light: the view reads it.
import type { BatchField } from './mapping.ts';
import type { NotOpen } from './platforms/types.ts';

/**
 * error: the order is held back (the service would refuse it, or the file does not say what to send);
 * warning: a rule of our own, the order goes as written; note: what PrintDesk read or left out, said;
 * skip: the order is not taken (not open on its platform, or nothing in it to print).
 */
export const PROBLEM_KINDS = ['error', 'warning', 'note', 'skip'] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

export type SkipReason = NotOpen | 'no-prints';

export interface BatchError {
  /** 1-based, as a spreadsheet shows it (the header is row 1) */
  row: number;
  /** the header name of the column, or null when the problem is not in one cell */
  column: string | null;
  field: BatchField | null;
  message: string;
  kind: ProblemKind;
  /** a skip's cause, for the review's counts and the choice to include such orders */
  reason?: SkipReason;
}
