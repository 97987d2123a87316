import type { ApiClient } from '../api/client.ts';
import { OrderPage, ServiceOrder } from '../api/schemas.ts';
import type { Draft } from '../schemas/orders.ts';
import type { OrdersStore } from './store.ts';

const PAGE_SIZE = 200;
const MAX_PAGES = 50;

/**
 * Placed orders move on at the service (production, shipping, cancellation). This reads the
 * project's order list, newest first, until every placed draft has been seen.
 */
export async function refreshStatuses(store: OrdersStore, client: ApiClient, drafts: Draft[], projectId: string): Promise<Draft[]> {
  const waiting = new Map(drafts.filter((d) => d.state === 'placed' && d.order).map((d) => [d.order?.orderId, d]));
  const changed: Draft[] = [];
  for (let page = 1; page <= MAX_PAGES && waiting.size > 0; page++) {
    const result = await client.call('getOrders', OrderPage, { query: { projectId, page: String(page), pageSize: String(PAGE_SIZE) } });
    for (const order of result.orders) {
      const draft = waiting.get(order.orderId);
      if (!draft?.order) continue;
      waiting.delete(order.orderId);
      if (order.status !== draft.order.status) {
        const updated = store.updatePlaced(draft.id, { ...draft.order, status: order.status });
        if (updated) changed.push(updated);
      }
    }
    if (result.orders.length < PAGE_SIZE) break;
  }
  return changed;
}

export async function cancelOrder(store: OrdersStore, client: ApiClient, draft: Draft): Promise<Draft> {
  if (!draft.order) return draft;
  const order = await client.call('cancelOrder', ServiceOrder, { query: { orderId: draft.order.orderId } });
  return store.updatePlaced(draft.id, { ...draft.order, status: order.status }) ?? draft;
}
