// Hands the order form's fields to the host a moment after typing stops, and at once when the page goes
// away (a reload in browser mode, the window closing), so that the host can make them a draft at the
// next start. Leaving the form in the app saves a draft instead (see OrderForm's teardown).
import type { DraftFields } from '../../electron/schemas/orders.ts';
import { printdesk } from './bridge.ts';

/** Quiet time after the last keystroke before the fields are sent: one write per pause, not per key. */
const SETTLE_MS = 400;

export class UnsavedFormKeeper {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: (() => Promise<unknown>) | null = null;
  /** Whether the host may hold fields of this form. */
  private kept = false;

  constructor() {
    addEventListener('pagehide', this.flush);
  }

  /** The form's fields now, and whether they differ from what is saved. */
  update(projectId: string, draftId: string | null, fields: DraftFields, dirty: boolean): void {
    if (!dirty && !this.kept) return this.drop();
    this.pending = dirty ? () => printdesk.drafts.keepUnsaved({ projectId, id: draftId ?? undefined, fields }) : () => printdesk.drafts.forgetUnsaved();
    this.kept = dirty;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.flush, SETTLE_MS);
  }

  flush = (): void => {
    clearTimeout(this.timer);
    const send = this.pending;
    this.pending = null;
    // Signed out or the host gone: what was sent last stays kept.
    void send?.().catch(() => {});
  };

  /** The form was saved: the host forgot its fields as it saved them, and a send still waiting is stale. */
  saved(): void {
    this.drop();
    this.kept = false;
  }

  /** The form closes: with `forget`, nothing of it is to be kept (it was discarded or left unchanged). */
  close(forget: boolean): void {
    this.drop();
    removeEventListener('pagehide', this.flush);
    if (forget && this.kept) void printdesk.drafts.forgetUnsaved().catch(() => {});
  }

  private drop(): void {
    clearTimeout(this.timer);
    this.pending = null;
  }
}
