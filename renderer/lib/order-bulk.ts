// What an action over the selected orders would act on (each action only on the orders it fits: Cancel on
// placed orders the service still cancels, Hold on queued ones…), and how its outcome reads.
import type { BulkResult, Draft } from '../../electron/contract/schemas/orders.ts';
import { cancellable } from '../../common/orders/cancellable.ts';
import { canEdit } from '../../common/orders/draft-rules.ts';
import { counted } from './format.ts';

export type BulkAction = 'cancel' | 'hold' | 'release' | 'retry' | 'delete';

const FITS: Record<BulkAction, (d: Draft) => boolean> = {
  cancel: cancellable,
  // An order whose last answer was lost may already be placed: it is asked about first, never held or changed.
  hold: (d) => d.state === 'queued' && !d.held && !d.unanswered,
  release: (d) => d.state === 'queued' && d.held,
  retry: (d) => d.state === 'rejected',
  delete: canEdit,
};

export const fits = (action: BulkAction, drafts: readonly Draft[]) => drafts.filter(FITS[action]);

/** Each action's orders among the selected. */
export function bulkTargets(drafts: readonly Draft[]): Record<BulkAction, Draft[]> {
  return { cancel: fits('cancel', drafts), hold: fits('hold', drafts), release: fits('release', drafts), retry: fits('retry', drafts), delete: fits('delete', drafts) };
}

const DONE: Record<BulkAction, string> = { cancel: 'cancelled', hold: 'held in the outbox', release: 'released', retry: 'sent again', delete: 'deleted' };

/** "12 orders cancelled." or "11 of 12 orders cancelled. PD-…: why; …" */
export function bulkOutcome(action: BulkAction, result: BulkResult): { text: string; failed: boolean } {
  const total = result.done.length + result.failed.length;
  const head = result.failed.length === 0 ? `${counted(total, 'order')} ${DONE[action]}.` : `${result.done.length.toLocaleString('en-US')} of ${counted(total, 'order')} ${DONE[action]}.`;
  if (result.failed.length === 0) return { text: head, failed: false };
  const shown = result.failed.slice(0, 3).map((f) => `${f.reference}: ${f.message}`);
  const more = result.failed.length > 3 ? ` And ${result.failed.length - 3} more.` : '';
  return { text: `${head} ${shown.join('; ')}.${more}`, failed: true };
}

/** The question before cancelling at the service: it names how many, and what is left out. */
export function cancelQuestion(targets: number, selected: number) {
  const left = selected - targets;
  const leftOut = left > 0 ? ` The other ${counted(left, 'selected order')} cannot be cancelled (not placed, already shipped or cancelled) and stay as they are.` : '';
  return {
    title: targets === 1 ? 'Cancel 1 order?' : `Cancel ${targets.toLocaleString('en-US')} orders?`,
    body: `${targets === 1 ? 'It is' : `These ${targets.toLocaleString('en-US')} orders are`} cancelled at the service and will not be printed. This cannot be undone.${leftOut}`,
    confirmLabel: targets === 1 ? 'Cancel 1 order' : `Cancel ${targets.toLocaleString('en-US')} orders`,
    cancelLabel: targets === 1 ? 'Keep it' : 'Keep them',
  };
}

export function deleteQuestion(targets: readonly Draft[]) {
  // Needs attention may mean the service already holds the order (it could not be confirmed): said so.
  const maybePlaced = targets.some((d) => d.state === 'needs-attention');
  return {
    title: `Delete ${counted(targets.length, 'order')}?`,
    body: `${targets.length === 1 ? 'It is' : 'They are'} removed from this computer.${maybePlaced ? ' Orders that need attention may already be held by the service; deleting them here does not cancel them there.' : ' None of them was placed.'}`,
    confirmLabel: `Delete ${counted(targets.length, 'order')}`,
    cancelLabel: targets.length === 1 ? 'Keep it' : 'Keep them',
  };
}
