// Which placed orders the service still cancels (docs/api-assumptions.md, "Order states and transitions"):
// until the order ships. One list, for the host's check and for the views that offer Cancel.

export const CANCELLABLE_STATUSES: readonly string[] = ['received', 'in_production'];

/** Whether an order with this state and service status may be cancelled now. */
export function cancellable(order: { state: string; order: { status: string } | null }): boolean {
  return order.state === 'placed' && order.order !== null && CANCELLABLE_STATUSES.includes(order.order.status);
}
