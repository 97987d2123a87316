import type { DraftState } from '../../electron/contract/schemas/orders.ts';

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

/** The service's status words ("in_production") as a person would write them ("In production"). */
export function statusWords(status: string): string {
  const words = status.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a badge shows of an order: where it stands here, or, once placed, the service's status. */
export interface OrderStanding {
  label: string;
  /** the badge's colour: one of the states, or held, cancelled, shipped */
  tone: DraftState | 'held' | 'cancelled' | 'shipped';
  /** orders in one standing sort together, in the order an order goes through them */
  rank: number;
}

/** Where an order is in its life, the service's statuses in the order the sandbox moves them (docs/api-assumptions.md). */
const SERVICE_RANK: Record<string, number> = { received: 10, in_production: 11, shipped: 12, delivered: 13, cancelled: 14 };

export function standing(order: { state: DraftState; held?: boolean; order: { status: string } | null }): OrderStanding {
  if (order.state === 'queued' && order.held) return { label: 'On hold', tone: 'held', rank: 3 };
  if (order.state !== 'placed' || !order.order) {
    const rank = { draft: 0, 'needs-attention': 1, rejected: 2, queued: 4, sending: 5, placed: 10 }[order.state];
    return { label: STATE_LABELS[order.state], tone: order.state, rank };
  }
  const status = order.order.status;
  const tone = status === 'cancelled' ? 'cancelled' : status === 'shipped' || status === 'delivered' ? 'shipped' : 'placed';
  return { label: statusWords(status), tone, rank: SERVICE_RANK[status] ?? 10.5 };
}
