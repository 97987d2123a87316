import type { DraftState } from '../../electron/schemas/orders.ts';

export const STATE_LABELS: Record<DraftState, string> = {
  draft: 'Draft',
  queued: 'In the outbox',
  sending: 'Sending',
  placed: 'Placed',
  rejected: 'Rejected',
  'needs-attention': 'Needs attention',
};

/** `status` is the service's word for a placed order: one cancelled there no longer reads "Placed". */
export const isCancelled = (state: DraftState, status: string | null | undefined) => state === 'placed' && status === 'cancelled';

export const stateLabel = (state: DraftState, status?: string | null) => (isCancelled(state, status) ? 'Cancelled' : STATE_LABELS[state]);
