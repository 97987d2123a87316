// "3 orders placed": said once, when the outbox has sent everything that waited for the service.
import type { Draft } from '../../contract/schemas/orders.ts';
import type { EmptiedSummary } from '../../../common/orders/outbox-words.ts';

export interface SendReportDeps {
  /** the signed-in account's orders still queued or on their way */
  waiting: () => number;
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

  function endIfEmpty() {
    if (!counting || deps.waiting() > 0) return;
    counting = false;
    if (placed + needAttention > 0) deps.report({ placed, needAttention });
    placed = needAttention = 0;
  }

  return {
    /** The service went away (start counting) or came back (nothing waited: nothing to say). */
    connectivity(online: boolean) {
      if (online) return endIfEmpty();
      counting = true;
    },
    /** An order the outbox moved. */
    sent(draft: Draft) {
      if (!counting) return;
      if (draft.state === 'placed') placed++;
      else if (draft.state === 'needs-attention' || draft.state === 'rejected') needAttention++;
      else return;
      endIfEmpty();
    },
  };
}
