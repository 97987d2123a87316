// Orders, their lines and status history. (user, orderReference) is UNIQUE in the schema, so a
// repeated reference can never become a second order, whatever the route layer does.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { sql } from '../db/statements.ts';
import { isoSeconds, nowSeconds } from '../validate.ts';

export const ORDER_STATUSES = ['received', 'in_production', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Allowed transitions; 'cancelled' only before the parcel leaves. */
export const TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  received: ['in_production', 'cancelled'],
  in_production: ['shipped', 'cancelled'],
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

export interface Recipient {
  firstName: string;
  lastName: string;
  streetAddress: string;
  postal: string;
  city: string;
  country: string;
  countryState: string | null;
  phoneNumber: string | null;
  email: string;
}

export interface OrderContent {
  ConfigIds: (string | number)[];
  ExternalConfigIds: (string | number)[];
  StockIds: (string | number)[];
}

export interface NewOrder {
  userId: string;
  projectId: string;
  orderReference: string;
  requestHash: string;
  shippingMethod: number;
  shippingPrice: number;
  currency: string;
  recipient: Recipient;
  orderContent: OrderContent;
  models: { modelId: string; quantity: number }[];
}

export interface OrderRecord extends Recipient {
  orderId: string;
  orderReference: string;
  projectId: string;
  status: OrderStatus;
  models: { modelId: string; quantity: number }[];
  shippingMethod: number;
  shippingPrice: number;
  currency: string;
  orderContent: OrderContent;
  createdAt: string;
  updatedAt: string;
}

interface OrderRow {
  order_id: string;
  user_id: string;
  project_id: string;
  order_reference: string;
  request_hash: string;
  status: OrderStatus;
  shipping_method_id: number;
  shipping_price: number;
  currency: string;
  recipient: string;
  order_content: string;
  created_at: number;
  updated_at: number;
}

export function insertOrder(db: Db, order: NewOrder): OrderRecord {
  const orderId = randomUUID();
  const now = nowSeconds();
  sql(
    db,
    `INSERT INTO orders (order_id, user_id, project_id, order_reference, request_hash, status, shipping_method_id,
       shipping_price, currency, recipient, order_content, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'received', ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    orderId, order.userId, order.projectId, order.orderReference, order.requestHash, order.shippingMethod,
    order.shippingPrice, order.currency, JSON.stringify(order.recipient), JSON.stringify(order.orderContent), now, now,
  );
  const line = sql(db, 'INSERT INTO order_lines (order_id, line_no, model_id, quantity) VALUES (?, ?, ?, ?)');
  order.models.forEach((m, index) => line.run(orderId, index + 1, m.modelId, m.quantity));
  sql(db, "INSERT INTO order_events (order_id, status, at) VALUES (?, 'received', ?)").run(orderId, now);
  return getOrder(db, orderId)!;
}

export function findOrderByReference(db: Db, userId: string, orderReference: string): { order: OrderRecord; requestHash: string } | undefined {
  const row = sql(db, 'SELECT * FROM orders WHERE user_id = ? AND order_reference = ?').get(userId, orderReference) as OrderRow | undefined;
  return row && { order: toRecord(db, row), requestHash: row.request_hash };
}

export function getOrder(db: Db, orderId: string): OrderRecord | undefined {
  const row = sql(db, 'SELECT * FROM orders WHERE order_id = ?').get(orderId.toLowerCase()) as OrderRow | undefined;
  return row && toRecord(db, row);
}

export function listOrders(db: Db, filter: { projectId?: string } = {}): OrderRecord[] {
  const rows = (
    filter.projectId
      ? sql(db, 'SELECT * FROM orders WHERE project_id = ? ORDER BY created_at, rowid').all(filter.projectId)
      : sql(db, 'SELECT * FROM orders ORDER BY created_at, rowid').all()
  ) as OrderRow[];
  return rows.map((row) => toRecord(db, row));
}

/** Moves an order to `status` if the transition is allowed; returns the error text otherwise. */
export function setOrderStatus(db: Db, orderId: string, status: OrderStatus): OrderRecord | string {
  return db.transaction(() => {
    const order = getOrder(db, orderId);
    if (!order) return `No order with id ${orderId}`;
    if (!TRANSITIONS[order.status].includes(status)) return `An order cannot go from ${order.status} to ${status}`;
    const now = nowSeconds();
    sql(db, 'UPDATE orders SET status = ?, updated_at = ? WHERE order_id = ?').run(status, now, order.orderId);
    sql(db, 'INSERT INTO order_events (order_id, status, at) VALUES (?, ?, ?)').run(order.orderId, status, now);
    return getOrder(db, order.orderId)!;
  }).immediate();
}

function toRecord(db: Db, row: OrderRow): OrderRecord {
  const lines = sql(db, 'SELECT model_id, quantity FROM order_lines WHERE order_id = ? ORDER BY line_no')
    .all(row.order_id) as { model_id: string; quantity: number }[];
  return {
    orderId: row.order_id,
    orderReference: row.order_reference,
    projectId: row.project_id,
    status: row.status,
    ...(JSON.parse(row.recipient) as Recipient),
    models: lines.map((l) => ({ modelId: l.model_id, quantity: l.quantity })),
    shippingMethod: row.shipping_method_id,
    shippingPrice: row.shipping_price,
    currency: row.currency,
    orderContent: JSON.parse(row.order_content) as OrderContent,
    createdAt: isoSeconds(row.created_at),
    updatedAt: isoSeconds(row.updated_at),
  };
}

/** One page of a project's orders, newest first (rowid breaks ties within a second). */
export function pageOfOrders(db: Db, filter: { projectId: string; status?: OrderStatus }, page: number, pageSize: number): { orders: OrderRecord[]; total: number } {
  const where = filter.status ? 'project_id = ? AND status = ?' : 'project_id = ?';
  const params = filter.status ? [filter.projectId, filter.status] : [filter.projectId];
  const { total } = sql(db, `SELECT count(*) AS total FROM orders WHERE ${where}`).get(...params) as { total: number };
  const rows = sql(db, `SELECT * FROM orders WHERE ${where} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`)
    .all(...params, pageSize, (page - 1) * pageSize) as OrderRow[];
  return { orders: rows.map((row) => toRecord(db, row)), total };
}
