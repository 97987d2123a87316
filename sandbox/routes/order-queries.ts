// Order operations beyond CreateOrder, which the spec leaves "not shown": GetOrders (paginated,
// newest first), GetOrder by id or by orderReference (how a client settles an ambiguous
// CreateOrder), UpdateOrderStatus (the PUT of spec section 3) and CancelOrder (DELETE cancels).
import { ApiError, badRequest, ok, requireObject } from '../http.ts';
import type { Route, RouteContext } from '../router.ts';
import { findOrderByReference, getOrder, ORDER_STATUSES, pageOfOrders, setOrderStatus } from '../store/orders.ts';
import type { OrderRecord, OrderStatus } from '../store/orders.ts';
import { parsePaging, requireGuid } from '../validate.ts';
import { requireProjectAccess } from './folders.ts';

function parseStatus(value: unknown, label: string): OrderStatus {
  if (value === undefined || value === null || value === '') throw badRequest(`${label} is not set`);
  if (typeof value !== 'string' || !(ORDER_STATUSES as readonly string[]).includes(value)) {
    throw badRequest(`${label} must be one of ${ORDER_STATUSES.join(', ')}`);
  }
  return value as OrderStatus;
}

/** An order the caller may see: 404 if unknown, 403 if its project is not theirs. */
function accessibleOrder(ctx: RouteContext, value: unknown, label = 'Order id'): OrderRecord {
  const orderId = requireGuid(value, label);
  const order = getOrder(ctx.services.db, orderId);
  if (!order) throw new ApiError(404, 'NOT_FOUND', `Order ${orderId} does not exist`);
  requireProjectAccess(ctx, order.projectId);
  return order;
}

export const getOrders: Route = {
  method: 'GET',
  path: '/Order/GetOrders',
  auth: true,
  body: 'none',
  handle(ctx) {
    const projectId = requireGuid(ctx.query.get('projectId'), 'Project id');
    const status = ctx.query.get('status') ? parseStatus(ctx.query.get('status'), 'status') : undefined;
    const paging = parsePaging(ctx.query);
    requireProjectAccess(ctx, projectId);
    const { orders, total } = pageOfOrders(ctx.services.db, { projectId, status }, paging.page, paging.pageSize);
    return ok({ orders, ...paging, total });
  },
};

export const getOrderRoute: Route = {
  method: 'GET',
  path: '/Order/GetOrder',
  auth: true,
  body: 'none',
  handle(ctx) {
    const orderId = ctx.query.get('orderId');
    const reference = ctx.query.get('orderReference');
    if (orderId && reference) throw badRequest('Give either orderId or orderReference, not both');
    if (orderId) return ok(accessibleOrder(ctx, orderId));
    if (!reference) throw badRequest('orderId or orderReference is required');
    // References are unique per account (as CreateOrder enforces), so the lookup is the caller's own.
    const found = findOrderByReference(ctx.services.db, ctx.user!.user_id, reference.trim().normalize('NFC'));
    if (!found) throw new ApiError(404, 'NOT_FOUND', `You have no order with reference ${reference}`);
    requireProjectAccess(ctx, found.order.projectId);
    return ok(found.order);
  },
};

export const updateOrderStatus: Route = {
  method: 'PUT',
  path: '/Order/UpdateOrderStatus',
  auth: true,
  body: 'json',
  handle(ctx) {
    const body = requireObject(ctx.body);
    const orderId = requireGuid(body.orderId, 'orderId');
    const status = parseStatus(body.status, 'status');
    const order = accessibleOrder(ctx, orderId, 'orderId');
    if (order.status === status) return ok(order);
    const result = setOrderStatus(ctx.services.db, order.orderId, status);
    if (typeof result === 'string') throw new ApiError(409, 'CONFLICT', result);
    return ok(result);
  },
};

export const cancelOrder: Route = {
  method: 'DELETE',
  path: '/Order/CancelOrder',
  auth: true,
  body: 'none',
  handle(ctx) {
    const order = accessibleOrder(ctx, ctx.query.get('orderId'));
    // Cancelling twice is not an error: a client retrying after a lost answer gets the same order.
    if (order.status === 'cancelled') return ok(order);
    const result = setOrderStatus(ctx.services.db, order.orderId, 'cancelled');
    if (typeof result === 'string') throw new ApiError(409, 'CONFLICT', `Order ${order.orderId} is ${order.status} and can no longer be cancelled`);
    return ok(result);
  },
};

export const ORDER_QUERY_ROUTES: readonly Route[] = [getOrders, getOrderRoute, updateOrderStatus, cancelOrder];
