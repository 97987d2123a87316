// What the review's Send button says and does, from the batch's counts: the orders sent before (skipped),
// those a send stopped halfway (the app closed) already queued, and those held back by a problem.
import type { BatchSummary } from '../../electron/services/batch/schemas.ts';

export interface SendAction {
  label: string;
  disabled: boolean;
  /** Whether pressing it leaves the orders with problems out (the only send possible while there are some). */
  skipInvalid: boolean;
  /** Says why the count differs from the file's, or null. */
  interrupted: string | null;
}

const orders = (n: number) => `${n} ${n === 1 ? 'order' : 'orders'}`;

type Counts = Pick<BatchSummary, 'state' | 'sentAt' | 'orders' | 'usedElsewhere' | 'queued' | 'rowsWithErrors' | 'sendable'>;

export function sendAction(batch: Counts): SendAction {
  const skipInvalid = batch.rowsWithErrors > 0;
  const { sendable } = batch;
  // "valid" only where some orders are not: otherwise every order the file has left to send is.
  const what = skipInvalid ? `${sendable} valid ${sendable === 1 ? 'order' : 'orders'}` : orders(sendable);
  if (batch.state === 'draft' && batch.sentAt !== null && batch.queued > 0) {
    // Sending again queues the rest and follows the whole batch; nothing already queued is queued twice.
    const next = sendable > 0 ? `Send queues the other ${what}.` : 'Resume to follow their progress.';
    return {
      label: sendable > 0 ? `Send the other ${what}` : 'Resume sending',
      disabled: false,
      skipInvalid,
      interrupted: `Sending stopped when PrintDesk closed, after ${orders(batch.queued)} of ${batch.orders} had been queued: those are being placed. ${next} Nothing is placed twice.`,
    };
  }
  if (batch.orders - batch.usedElsewhere <= 0) return { label: 'Nothing new to send', disabled: true, skipInvalid, interrupted: null };
  if (sendable === 0) return { label: 'No valid orders to send', disabled: true, skipInvalid, interrupted: null };
  if (skipInvalid) return { label: `Send the ${what}`, disabled: false, skipInvalid, interrupted: null };
  const label = batch.usedElsewhere > 0 ? `Send ${sendable} new ${sendable === 1 ? 'order' : 'orders'}` : `Send ${what}`;
  return { label, disabled: false, skipInvalid, interrupted: null };
}
