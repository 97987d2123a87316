// A draft as the store keeps it (one row of `drafts`, with its batch origin joined in) and as the contract
// carries it.
import type { BatchOrigin, Draft, DraftFields, DraftState, PlacedOrder, Problem } from '../../contract/schemas/orders.ts';

export interface Row {
  id: string;
  order_reference: string;
  project_id: string;
  fields: string;
  state: DraftState;
  problem: string | null;
  placed: string | null;
  attempts: number;
  unanswered: number;
  /** ms since the epoch; 0 when due */
  next_attempt_at: number;
  held: number;
  version: number;
  claimed_by: string | null;
  lease_until: number;
  /** JSON of the batch it came from (see batch-origin.ts), or null */
  origin: string | null;
  created_at: string;
  updated_at: string;
}

export const toDraft = (row: Row): Draft => ({
  ...(JSON.parse(row.fields) as DraftFields),
  id: row.id,
  orderReference: row.order_reference,
  projectId: row.project_id,
  state: row.state,
  problem: row.problem ? (JSON.parse(row.problem) as Problem) : null,
  order: row.placed ? (JSON.parse(row.placed) as PlacedOrder) : null,
  attempts: row.attempts,
  unanswered: row.unanswered === 1,
  nextAttemptAt: row.state === 'queued' && row.next_attempt_at > 0 ? new Date(row.next_attempt_at).toISOString() : null,
  held: row.state === 'queued' && row.held === 1,
  batch: row.origin ? (JSON.parse(row.origin) as BatchOrigin) : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});
