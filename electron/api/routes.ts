// Every path of the service in one place. `safe` marks calls that may be retried automatically:
// reads, and calls whose repetition cannot do anything twice (order creation carries orderReference).
export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  auth: boolean;
  safe: boolean;
}

export const routes = {
  login: { method: 'POST', path: 'Auth/Login', auth: false, safe: false },
  // Not safe: the service rotates refresh tokens, so a lost answer cannot be replayed.
  refreshToken: { method: 'POST', path: 'Auth/RefreshToken', auth: false, safe: false },
  getProjects: { method: 'GET', path: 'Project/GetProjects', auth: true, safe: true },
  hasAccessToProject: { method: 'GET', path: 'Project/HasAccesToProject', auth: true, safe: true },
  getModelData: { method: 'GET', path: 'Model3D/GetModelData', auth: true, safe: true },
  getFolders: { method: 'GET', path: 'Folder/GetFolders', auth: true, safe: true },
  getShippingMethods: { method: 'POST', path: 'Shipping/GetShippingMethods', auth: true, safe: true },
  createOrder: { method: 'POST', path: 'Order/CreateOrder', auth: true, safe: true },
  getOrder: { method: 'GET', path: 'Order/GetOrder', auth: true, safe: true },
  getOrders: { method: 'GET', path: 'Order/GetOrders', auth: true, safe: true },
  // Cancelling twice leaves the order cancelled: safe to repeat.
  cancelOrder: { method: 'DELETE', path: 'Order/CancelOrder', auth: true, safe: true },
} as const satisfies Record<string, Route>;

export type RouteName = keyof typeof routes;
