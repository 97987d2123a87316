// What the client needs from each answer. Objects are not strict: fields the service adds are
// ignored, and only what the app uses is required. Where the spec says "not shown", the shape
// accepted is wider than the sandbox's own (docs/api-assumptions.md).
import { z } from 'zod';

export const TokenPair = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
});
export type TokenPair = z.infer<typeof TokenPair>;

const ServiceProject = z
  .object({
    projectId: z.string().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    projectName: z.string().optional(),
    createdAt: z.string().optional(),
  })
  .refine((p) => p.projectId ?? p.id, { message: 'project has no projectId', path: ['projectId'] })
  .transform((p) => ({
    projectId: (p.projectId ?? p.id) as string,
    name: p.name ?? p.projectName ?? (p.projectId ?? p.id) as string,
    createdAt: p.createdAt ?? null,
  }));

/** A bare array or { projects: [...] }. */
export const ProjectList = z
  .union([z.array(ServiceProject), z.object({ projects: z.array(ServiceProject) })])
  .transform((data) => (Array.isArray(data) ? data : data.projects));

/** A bare boolean or { hasAccess } / { access }. */
export const ProjectAccess = z
  .union([z.boolean(), z.object({ hasAccess: z.boolean() }), z.object({ access: z.boolean() })])
  .transform((data) => (typeof data === 'boolean' ? data : 'hasAccess' in data ? data.hasAccess : data.access));

const isoOrNull = z.string().nullable().optional().transform((v) => v ?? null);

export const ServiceShippingMethod = z.object({
  shippingMethodId: z.number(),
  carrier: z.string(),
  method: z.string(),
  servicePoint: z.boolean().optional().default(false),
  price: z.number(),
  minDeliveryTime: isoOrNull,
  maxDeliveryTime: isoOrNull,
  estimatedDeliveryTime: isoOrNull,
});

/** Spec 4.1: `{ methods: [...] }`; a currency is taken if the service gives one (2.3 shows none). */
export const ShippingMethods = z.object({
  methods: z.array(ServiceShippingMethod),
  currency: z.string().optional(),
});

/** An order record as CreateOrder / GetOrder answer it ("not shown" in the spec: read defensively). */
export const ServiceOrder = z
  .object({
    orderId: z.string().optional(),
    id: z.string().optional(),
    orderReference: z.string().optional(),
    status: z.string().optional(),
    createdAt: z.string().optional(),
    updatedAt: z.string().optional().catch(undefined),
    shippingPrice: z.number().optional(),
    currency: z.string().optional(),
    // What the order was placed with, where the record says (the sandbox's does): an order found by a
    // reference is checked against the draft before it is taken as the draft's (see orders/adopt.ts).
    projectId: z.string().optional().catch(undefined),
    firstName: z.string().optional().catch(undefined),
    lastName: z.string().optional().catch(undefined),
    postal: z.string().optional().catch(undefined),
    country: z.string().optional().catch(undefined),
    shippingMethod: z.number().optional().catch(undefined),
    models: z.array(z.object({ modelId: z.string(), quantity: z.number() })).optional().catch(undefined),
  })
  .refine((o) => o.orderId ?? o.id, { message: 'order has no orderId', path: ['orderId'] })
  .transform((o) => ({
    orderId: (o.orderId ?? o.id) as string,
    orderReference: o.orderReference ?? null,
    status: o.status ?? 'received',
    createdAt: o.createdAt ?? null,
    updatedAt: o.updatedAt ?? null,
    shippingPrice: o.shippingPrice ?? null,
    currency: o.currency ?? null,
    placedWith: { projectId: o.projectId, firstName: o.firstName, lastName: o.lastName, postal: o.postal, country: o.country, shippingMethod: o.shippingMethod, models: o.models },
  }));
export type ServiceOrder = z.output<typeof ServiceOrder>;

/** CreateOrder may answer with the record, `{ order }`, or just an id. */
export const CreatedOrder = z.union([
  z.object({ order: ServiceOrder }).transform((d) => d.order),
  ServiceOrder,
  z.string().transform((orderId) => ServiceOrder.parse({ orderId })),
]);

export const OrderPage = z.union([
  z.object({ orders: z.array(ServiceOrder), total: z.number().optional(), page: z.number().optional(), pageSize: z.number().optional() }),
  // A bare list says nothing of pages: read on until a page brings nothing new.
  z.array(ServiceOrder).transform((orders) => ({ orders, total: undefined, page: undefined, pageSize: undefined })),
]);
