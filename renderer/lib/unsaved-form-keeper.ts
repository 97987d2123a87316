// Hands the order form's fields to the host a moment after typing stops, and at once when the page goes
// away (a reload in browser mode, the window closing), so that the host can make them a draft at the
// next start. Leaving the form in the app saves a draft instead (see OrderForm's teardown).
import type { DraftFields } from '../../electron/contract/schemas/orders.ts';
import { printdesk } from './bridge.ts';

/** Quiet time after the last keystroke before the fields are sent: one write per pause, not per key. */
const SETTLE_MS = 400;

type Send = { keep: true; projectId: string; draftId: string | null; fields: DraftFields } | { keep: false };

export class UnsavedFormKeeper {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: Send | null = null;
  /** Whether the host may hold fields of this form: set when they are sent, cleared when a forget is. */
  private held = false;

  constructor() {
    addEventListener('pagehide', this.flush);
  }

  /** The form's fields now, and whether they differ from what is saved. */
  update(projectId: string, draftId: string | null, fields: DraftFields, dirty: boolean): void {
    if (dirty) this.pending = { keep: true, projectId, draftId, fields };
    else if (this.held || this.pending?.keep) this.pending = { keep: false };
    else return this.drop();
    clearTimeout(this.timer);
    this.timer = setTimeout(this.flush, SETTLE_MS);
  }

  flush = (): void => {
    clearTimeout(this.timer);
    const send = this.pending;
    this.pending = null;
    if (!send) return;
    this.held = send.keep;
    // Signed out or the host gone: what was sent last stays kept.
    const sending = send.keep ? printdesk.drafts.keepUnsaved({ projectId: send.projectId, id: send.draftId ?? undefined, fields: send.fields }) : printdesk.drafts.forgetUnsaved();
    void sending.catch(() => {});
  };

  /** The form was saved: the host forgot its fields as it saved them, and a send still waiting is stale. */
  saved(): void {
    this.drop();
    this.held = false;
  }

  /**
   * The form closes. With `forget`, nothing of it is to be kept (it was discarded, or left as saved):
   * whatever the host holds, or was about to be sent, is forgotten.
   */
  close(forget: boolean): void {
    const waiting = this.pending;
    this.drop();
    removeEventListener('pagehide', this.flush);
    if (forget && (this.held || waiting?.keep)) {
      this.held = false;
      void printdesk.drafts.forgetUnsaved().catch(() => {});
    }
  }

  private drop(): void {
    clearTimeout(this.timer);
    this.pending = null;
  }
}
