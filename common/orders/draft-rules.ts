// What an order must be for the user to change it, and to send it: one rule each, for the host's checks
// and for the views that offer Edit, Delete and Place.

/** The states in which an order is still the user's to edit or delete: not in the outbox, not placed. */
export const EDITABLE_STATES = ['draft', 'rejected', 'needs-attention'] as const;

/**
 * Whether the user may edit or delete the order now. Not while an attempt's answer was lost
 * (`unanswered`): the service may hold the order as it was sent.
 */
export function canEdit(order: { state: string; unanswered: boolean }): boolean {
  return (EDITABLE_STATES as readonly string[]).includes(order.state) && !order.unanswered;
}

/**
 * Whether the order says how it ships: a method chosen, or (since offline ordering) a rule the outbox
 * applies when it sends the order. Without either it cannot be placed.
 */
export function hasShipping(fields: { shippingMethod: object | null; shippingRule?: object | null }): boolean {
  return fields.shippingMethod !== null || !!fields.shippingRule;
}
