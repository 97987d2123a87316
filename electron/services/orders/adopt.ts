// An order the service already holds under a draft's reference is the draft's own only if it was placed
// with what the draft holds: a reference reused (a shop's numbering restarted, another tool) names
// someone else's order, and taking it as placed would lose the draft's order without a word.
import type { ServiceOrder } from '../api/schemas.ts';
import type { Draft } from '../../contract/schemas/orders.ts';
import { toAlpha2 } from '../../../common/orders/countries.ts';

const same = (a: string | undefined, b: string) => a === undefined || a.trim().normalize('NFC').toLowerCase() === b.trim().normalize('NFC').toLowerCase();

/** Model lines in one spelling, whatever their order and the ids' case: equal keys, the same models. */
export const modelsKey = (lines: ReadonlyArray<{ modelId: string; quantity: number }>) =>
  lines.map((l) => `${l.modelId.toLowerCase()}×${Number(l.quantity)}`).sort().join(',');

function sameModels(placed: ServiceOrder['placedWith']['models'], draft: Draft['models']): boolean {
  return placed === undefined || modelsKey(placed) === modelsKey(draft);
}

/**
 * What differs between the order found and the draft, in words; empty when nothing the record shows
 * differs (a record that shows nothing is taken on the reference alone, as the spec means it).
 */
export function differences(order: ServiceOrder, draft: Draft): string[] {
  const placed = order.placedWith;
  const r = draft.recipient;
  const found: string[] = [];
  if (placed.projectId !== undefined && placed.projectId.toLowerCase() !== draft.projectId.toLowerCase()) found.push('project');
  if (!same(placed.firstName, r.firstName) || !same(placed.lastName, r.lastName)) found.push('recipient');
  if (!same(placed.postal, r.postal)) found.push('postal code');
  if (placed.country !== undefined && (toAlpha2(placed.country) ?? placed.country) !== (toAlpha2(r.country) ?? r.country)) found.push('country');
  if (!sameModels(placed.models, draft.models)) found.push('models');
  if (placed.shippingMethod !== undefined && placed.shippingMethod !== draft.shippingMethod?.shippingMethodId) found.push('shipping method');
  return found;
}
