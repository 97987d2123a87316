// An order's problem as the user reads it: the service's words, with the models it names by id given their
// names where the order knows them, as a sentence that the view's advice can follow.
import { GUIDS_IN_TEXT } from '../../common/orders/validation.ts';
import type { Draft } from '../../electron/contract/schemas/orders.ts';

export function problemText(draft: Draft, message: string): string {
  const named = message.replace(GUIDS_IN_TEXT, (id) => {
    const line = draft.models.find((l) => l.modelId.toLowerCase() === id.toLowerCase());
    return line?.name ? `“${line.name}” (${id.slice(0, 8)}…)` : id;
  });
  const trimmed = named.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
