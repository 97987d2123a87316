import type { ApiClient } from '../api/client.ts';
import { HostError, isUnreachable } from '../api/errors.ts';
import { OrderPage, ServiceOrder } from '../api/schemas.ts';
import { orderUnderReference } from './create-order.ts';
import type { Draft } from '../../contract/schemas/orders.ts';
import type { OrdersStore } from './store.ts';

const PAGE_SIZE = 200;
const MAX_PAGES = 50;

/**
 * Placed orders move on at the service (production, shipping, cancellation). This reads the
 * project's order list, newest first, until every placed draft has been seen.
 */
export async function refreshStatuses(store: OrdersStore, client: ApiClient, drafts: Draft[], projectId: string): Promise<Draft[]> {
  // By the service's id, or by reference for an order placed without one in the answer (see outbox.create).
  const keyOf = (d: Draft) => (d.order?.orderId ? `id:${d.order.orderId}` : `ref:${d.orderReference}`);
  const waiting = new Map(drafts.filter((d) => d.state === 'placed' && d.order).map((d) => [keyOf(d), d]));
  const changed: Draft[] = [];
  const seen = new Set<string>();
  for (let page = 1; page <= MAX_PAGES && waiting.size > 0; page++) {
    const result = await client.call('getOrders', OrderPage, { query: { projectId, page: String(page), pageSize: String(PAGE_SIZE) } });
    const before = seen.size;
    for (const order of result.orders) seen.add(order.orderId);
    // Not "a short page is the last": a service may page by less than asked. An empty page, a page of
    // orders already read (a service that ignores the page asked for), or the total, ends it.
    const done = seen.size === before || (result.total !== undefined && seen.size >= result.total);
    for (const order of result.orders) {
      const key = waiting.has(`id:${order.orderId}`) ? `id:${order.orderId}` : `ref:${order.orderReference}`;
      const draft = waiting.get(key);
      if (!draft?.order) continue;
      waiting.delete(key);
      if (order.status !== draft.order.status || !draft.order.orderId) {
        const updated = await store.updatePlaced(draft.id, { ...draft.order, orderId: order.orderId, status: order.status }, { reportedAt: order.updatedAt });
        if (updated) changed.push(updated);
      }
    }
    if (done) break;
  }
  return changed;
}

export async function cancelOrder(store: OrdersStore, client: ApiClient, draft: Draft): Promise<Draft> {
  if (!draft.order) return draft;
  const orderId = draft.order.orderId || (await orderIdOf(client, draft));
  const order = await client.call('cancelOrder', ServiceOrder, { query: { orderId } });
  return (await store.updatePlaced(draft.id, { ...draft.order, orderId, status: order.status }, { message: 'Cancelled from PrintDesk' })) ?? draft;
}

/** The service's id of an order placed without one in its answer, asked by reference. */
async function orderIdOf(client: ApiClient, draft: Draft): Promise<string> {
  const cannot = `The service did not give this order's ID and cannot look it up by its reference (${draft.orderReference}), so it cannot be cancelled from here. Ask the service to cancel it.`;
  let order: ServiceOrder | null;
  try {
    order = await orderUnderReference(client, draft);
  } catch (error) {
    if (isUnreachable(error)) throw error;
    throw new HostError('INVALID_INPUT', cannot, { cause: error });
  }
  if (!order) throw new HostError('INVALID_INPUT', cannot);
  return order.orderId;
}

/** The service's current word on one placed order, asked by its id; the draft as it was when there is none. */
export async function checkStatus(store: OrdersStore, client: ApiClient, draft: Draft): Promise<Draft> {
  if (draft.state !== 'placed' || !draft.order?.orderId) return draft;
  const order = await client.call('getOrder', ServiceOrder, { query: { orderId: draft.order.orderId } });
  if (order.status === draft.order.status) return draft;
  return (await store.updatePlaced(draft.id, { ...draft.order, status: order.status }, { reportedAt: order.updatedAt })) ?? draft;
}
