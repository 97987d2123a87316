// CreateOrder's request, and the order the service holds under a draft's reference: what the outbox
// decides from. What the service's answers mean is the api layer's (api/order-answers.ts, api/errors.ts).
import type { ApiClient } from '../api/client.ts';
import { lookUpUnavailable } from '../api/order-answers.ts';
import { ServiceOrder } from '../api/schemas.ts';
import type { Draft } from '../../contract/schemas/orders.ts';
import { toAlpha2 } from '../../../common/orders/countries.ts';

export function payload(draft: Draft) {
  const r = draft.recipient;
  // Optional fields left empty are left out rather than sent as "".
  const given = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v !== ''));
  return {
    ...given,
    country: toAlpha2(r.country) ?? r.country.trim().toUpperCase(),
    models: draft.models.map(({ modelId, quantity }) => ({ modelId, quantity })),
    shippingMethod: draft.shippingMethod?.shippingMethodId,
    projectId: draft.projectId,
    orderReference: draft.orderReference,
    orderContent: draft.orderContent,
  };
}

/** A reference PrintDesk made for the draft (PD-<uuid>): no other order can hold it. */
export function ownReference(draft: Draft): boolean {
  return /^PD-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(draft.orderReference);
}

/** An order known to exist by its reference alone, its record not had. */
export function orderByReference(draft: Draft): Omit<ServiceOrder, 'placedWith'> {
  return { orderId: '', orderReference: draft.orderReference, status: 'received', createdAt: null, updatedAt: null, shippingPrice: null, currency: null };
}

/** The service's order under the draft's reference, or null when it holds none or cannot be asked. */
export async function orderUnderReference(client: ApiClient, draft: Draft): Promise<ServiceOrder | null> {
  try {
    return await client.call('getOrder', ServiceOrder, { query: { orderReference: draft.orderReference } });
  } catch (error) {
    if (lookUpUnavailable(error)) return null;
    throw error;
  }
}
