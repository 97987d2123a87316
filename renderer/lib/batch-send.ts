// What the review's Send button says and whether it can be pressed, from the batch's counts: the orders
// sent before (skipped), and those a send stopped halfway (the app closed) already queued.
import type { BatchSummary } from '../../electron/batch/schemas.ts';

export interface SendAction {
  label: string;
  disabled: boolean;
  /** Says why the count differs from the file's, or null. */
  interrupted: string | null;
}

const orders = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`;

export function sendAction(batch: Pick<BatchSummary, 'state' | 'sentAt' | 'orders' | 'usedElsewhere' | 'queued' | 'rowsWithErrors'>): SendAction {
  const rest = batch.orders - batch.usedElsewhere - batch.queued;
  const blocked = batch.rowsWithErrors > 0;
  if (batch.state === 'draft' && batch.sentAt !== null && batch.queued > 0) {
    // Sending again queues the rest and follows the whole batch; nothing already queued is queued twice.
    const next = rest > 0 ? `Send queues the other ${orders(rest)}.` : 'Resume to follow their progress.';
    return {
      label: rest > 0 ? `Send the other ${orders(rest)}` : 'Resume sending',
      disabled: blocked,
      interrupted: `Sending stopped when PrintDesk closed, after ${orders(batch.queued)} of ${batch.orders} had been queued: those are being placed. ${next} Nothing is placed twice.`,
    };
  }
  if (rest <= 0) return { label: 'Nothing new to send', disabled: true, interrupted: null };
  const label = batch.usedElsewhere > 0 ? `Send ${rest} new ${rest === 1 ? 'order' : 'orders'}` : `Send ${orders(rest)}`;
  return { label, disabled: blocked, interrupted: null };
}
