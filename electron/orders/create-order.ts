// CreateOrder's request, and how its answers and failures read: what the outbox decides from them.
import type { ApiClient } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import { ServiceOrder } from '../api/schemas.ts';
import type { Draft } from '../schemas/orders.ts';
import { toAlpha2 } from '../../common/orders/countries.ts';

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

/**
 * Whether a failed request may still have been acted on: no answer in time, a connection cut after it was
 * sent, or a 5xx or garbled answer. A refused connection or a 429 never reached the order logic.
 */
export function mayHaveActed(error: unknown): boolean {
  if (!(error instanceof HostError)) return true;
  if (error.code === 'OFFLINE') return error.details?.ambiguous !== false;
  // Stopped here (Ctrl+C) while on its way: the service may have it.
  if (error.code === 'CANCELLED') return true;
  return error.code === 'TIMEOUT' || error.code === 'INTERNAL_ERROR' || error.code === 'INVALID_RESPONSE';
}

/** The service says an order already holds the reference. */
export function referenceTaken(error: HostError): boolean {
  if (error.status === 409) return true;
  return error.code === 'INCORRECT_PARAMETERS' && /reference/i.test(error.message) && /(exist|already|used|taken|duplicate)/i.test(error.message);
}

/**
 * The look-up by reference is not there to ask (not in the spec): the service answers as for any unknown
 * route or parameter. Not a 403, which the sandbox gives for an order that exists in a project no longer
 * this account's.
 */
function lookUpUnavailable(error: unknown): boolean {
  return error instanceof HostError && [400, 404, 405, 501].includes(error.status ?? 0);
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
