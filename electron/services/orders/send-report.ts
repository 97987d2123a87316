// "3 orders placed": said once, when the outbox has sent everything that waited for the service.
import type { Draft } from '../../contract/schemas/orders.ts';
import type { EmptiedSummary } from '../../../common/orders/outbox-words.ts';

export interface SendReportDeps {
  /** the signed-in account's orders still queued or on their way */
  waiting: () => Promise<number>;
  report: (summary: EmptiedSummary) => void;
}

export type SendReport = ReturnType<typeof createSendReport>;

/**
 * Counts from the moment the service goes away (or the user works offline): what the outbox then places,
 * or stops for the user, is told together once nothing is left to send. Orders placed while the service
 * was there all along are no news: the user saw them go.
 */
export function createSendReport(deps: SendReportDeps) {
  let counting = false;
  let placed = 0;
  let needAttention = 0;

  async function endIfEmpty() {
    if (!counting) return;
    // Unreadable (the store closing under a late answer): taken as still waiting, so nothing untrue is said.
    const waiting = await deps.waiting().catch(() => 1);
    // Re-read after the wait: another order's report may have ended the count meanwhile.
    if (!counting || waiting > 0) return;
    counting = false;
    if (placed + needAttention > 0) deps.report({ placed, needAttention });
    placed = needAttention = 0;
  }

  return {
    /** The service went away (start counting) or came back (nothing waited: nothing to say). */
    connectivity(online: boolean): Promise<void> | void {
      if (online) return endIfEmpty();
      counting = true;
    },
    /** An order the outbox moved. */
    sent(draft: Draft): Promise<void> | void {
      if (!counting) return;
      if (draft.state === 'placed') placed++;
      else if (draft.state === 'needs-attention' || draft.state === 'rejected') needAttention++;
      else return;
      return endIfEmpty();
    },
  };
}
