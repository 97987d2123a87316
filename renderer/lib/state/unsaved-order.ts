// What the order form held when the session ended under it (the app then shows sign-in and the form is
// gone): given back when the same account opens the same form again. Memory only, like the session.
import type { DraftFields } from '../../../electron/contract/schemas/orders.ts';

interface Kept {
  email: string;
  projectId: string;
  /** the draft being edited, or null for a new order */
  draftId: string | null;
  fields: DraftFields;
}

let kept: Kept | null = null;

export function keepUnsavedOrder(entry: Kept): void {
  kept = entry;
}

/** The kept fields for this form, once: a second opening starts from the draft as saved. */
export function takeUnsavedOrder(email: string, projectId: string, draftId: string | null): DraftFields | null {
  if (!kept || kept.email !== email || kept.projectId !== projectId || kept.draftId !== draftId) return null;
  const { fields } = kept;
  kept = null;
  return fields;
}
