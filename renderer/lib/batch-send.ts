// What the review's Send button says and does, from the batch's counts: the orders sent before (skipped),
// those a send stopped halfway (the app closed) already queued, and those held back by a problem.
import type { BatchSummary } from '../../electron/batch/schemas.ts';

export interface SendAction {
  label: string;
  disabled: boolean;
  /** Whether pressing it leaves the orders with problems out (the only send possible while there are some). */
  skipInvalid: boolean;
  /** Says why the count differs from the file's, or null. */
  interrupted: string | null;
}

const orders = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`;

type Counts = Pick<BatchSummary, 'state' | 'sentAt' | 'orders' | 'usedElsewhere' | 'queued' | 'rowsWithErrors' | 'ordersWithErrors'>;

export function sendAction(batch: Counts): SendAction {
  const rest = batch.orders - batch.usedElsewhere - batch.queued;
  const skipInvalid = batch.rowsWithErrors > 0;
  // An order both sent before and now with a problem is subtracted twice: rare, and the report is exact.
  const sendable = Math.max(0, rest - batch.ordersWithErrors);
  if (batch.state === 'draft' && batch.sentAt !== null && batch.queued > 0) {
    // Sending again queues the rest and follows the whole batch; nothing already queued is queued twice.
    const next = rest > 0 ? `Send queues the other ${orders(rest)}.` : 'Resume to follow their progress.';
    const label = rest <= 0 ? 'Resume sending' : skipInvalid ? `Send the other ${sendable} valid ${sendable === 1 ? 'order' : 'orders'}` : `Send the other ${orders(rest)}`;
    return {
      label,
      disabled: false,
      skipInvalid,
      interrupted: `Sending stopped when PrintDesk closed, after ${orders(batch.queued)} of ${batch.orders} had been queued: those are being placed. ${next} Nothing is placed twice.`,
    };
  }
  if (rest <= 0) return { label: 'Nothing new to send', disabled: true, skipInvalid, interrupted: null };
  if (skipInvalid) {
    if (sendable === 0) return { label: 'No valid orders to send', disabled: true, skipInvalid, interrupted: null };
    return { label: `Send the ${sendable} valid ${sendable === 1 ? 'order' : 'orders'}`, disabled: false, skipInvalid, interrupted: null };
  }
  const label = batch.usedElsewhere > 0 ? `Send ${rest} new ${rest === 1 ? 'order' : 'orders'}` : `Send ${orders(rest)}`;
  return { label, disabled: false, skipInvalid, interrupted: null };
}
