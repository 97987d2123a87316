// POST /Order/CreateOrder (spec 2.6). Validates every field, checks project access (403), the
// models and the shipping method, and makes orderReference idempotent per account: the same
// request again returns the first order; a different request with a used reference is a 422.
import { createHash } from 'node:crypto';
import { ApiError, badRequest, ok, requireObject } from '../http.ts';
import type { Reply } from '../http.ts';
import { parseCountry, parseModelEntries, resolveModels } from '../order-input.ts';
import type { Route } from '../router.ts';
import { CURRENCY, quote } from '../shipping.ts';
import { hasProjectAccess } from '../store/accounts.ts';
import { findOrderByReference, insertOrder } from '../store/orders.ts';
import type { OrderContent, Recipient } from '../store/orders.ts';
import { isEmail, requireGuid } from '../validate.ts';

const CONTENT_KEYS = ['ConfigIds', 'ExternalConfigIds', 'StockIds'] as const;

export const createOrder: Route = {
  method: 'POST',
  path: '/Order/CreateOrder',
  auth: true,
  body: 'json',
  handle(ctx) {
    const { db } = ctx.services;
    const userId = ctx.user!.user_id;
    const body = requireObject(ctx.body);
    const projectId = requireGuid(body.projectId, 'projectId');
    const recipient = parseRecipient(body);
    const models = parseModelEntries(body.models);
    const shippingMethod = body.shippingMethod;
    if (shippingMethod === undefined || shippingMethod === null) throw badRequest('shippingMethod is not set');
    if (typeof shippingMethod !== 'number' || !Number.isInteger(shippingMethod)) throw badRequest('shippingMethod must be a whole number (a shippingMethodId)');
    const orderReference = text(body.orderReference, 'orderReference', 100);
    const orderContent = parseOrderContent(body.orderContent);
    if (!hasProjectAccess(db, userId, projectId)) throw new ApiError(403, 'NO_PERMISSION', `You have no access to project ${projectId}`);

    const input = { projectId, recipient, models, shippingMethod, orderReference, orderContent };
    const requestHash = createHash('sha256').update(JSON.stringify(input)).digest('hex');
    return db.transaction((): Reply => {
      const existing = findOrderByReference(db, userId, orderReference);
      if (existing) {
        if (existing.requestHash !== requestHash) {
          throw new ApiError(422, 'INCORRECT_PARAMETERS', `orderReference ${orderReference} was already used for a different order (${existing.order.orderId})`);
        }
        return { ...ok(existing.order), headers: { 'Idempotent-Replayed': 'true' } };
      }
      const { weightGrams } = resolveModels(db, userId, models, projectId);
      const method = quote(parseCountry(recipient.country), { weightGrams }).find((m) => m.shippingMethodId === shippingMethod);
      if (!method) throw badRequest(`Shipping method ${shippingMethod} is not available to ${recipient.country} for this order`);
      const order = insertOrder(db, {
        userId, projectId, orderReference, requestHash, shippingMethod, shippingPrice: method.price, currency: CURRENCY, recipient, orderContent, models,
      });
      return ok(order);
    }).immediate();
  },
};

function parseRecipient(body: Record<string, unknown>): Recipient {
  const recipient: Recipient = {
    firstName: text(body.firstName, 'firstName', 100),
    lastName: text(body.lastName, 'lastName', 100),
    streetAddress: text(body.streetAddress, 'streetAddress', 200),
    postal: text(body.postal, 'postal', 20),
    city: text(body.city, 'city', 100),
    country: parseCountry(body.country).alpha2,
    countryState: optionalText(body.countryState, 'countryState', 100),
    phoneNumber: optionalText(body.phoneNumber, 'phoneNumber', 30),
    email: text(body.email, 'email', 254),
  };
  if (!isEmail(recipient.email)) throw badRequest('email must be an e-mail address');
  if (recipient.phoneNumber !== null && !/^\+?[0-9 ()./-]{5,30}$/.test(recipient.phoneNumber)) {
    throw badRequest('phoneNumber may hold only digits, spaces, "+", "-", ".", "/" and parentheses');
  }
  return recipient;
}

function text(value: unknown, field: string, max: number): string {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) throw badRequest(`${field} is not set`);
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  const trimmed = value.trim().normalize('NFC');
  if (trimmed.length > max) throw badRequest(`${field} must be at most ${max} characters`);
  // Control characters break labels and carrier systems; everything else in Unicode is a name.
  if (/\p{Cc}/u.test(trimmed)) throw badRequest(`${field} must not contain control characters`);
  return trimmed;
}

function optionalText(value: unknown, field: string, max: number): string | null {
  return value === undefined || value === null || value === '' ? null : text(value, field, max);
}

function parseOrderContent(value: unknown): OrderContent {
  const content: OrderContent = { ConfigIds: [], ExternalConfigIds: [], StockIds: [] };
  if (value === undefined || value === null) return content;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('orderContent must be an object');
  for (const key of Object.keys(value)) {
    if (!(CONTENT_KEYS as readonly string[]).includes(key)) throw badRequest(`orderContent.${key} is not a known field (${CONTENT_KEYS.join(', ')})`);
  }
  for (const key of CONTENT_KEYS) {
    const list = (value as Record<string, unknown>)[key];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list) || list.length > 1000) throw badRequest(`orderContent.${key} must be an array of at most 1000 ids`);
    list.forEach((id: unknown, index) => {
      const valid = (typeof id === 'string' && id.length > 0 && id.length <= 200) || (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0);
      if (!valid) throw badRequest(`orderContent.${key}[${index}] must be a non-empty string or a non-negative whole number`);
    });
    content[key] = list as (string | number)[];
  }
  return content;
}
