// Every path of the service in one place. `safe` marks calls that may be retried automatically:
// reads, and calls whose repetition cannot do anything twice.
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
  downloadModel: { method: 'GET', path: 'Model3D/DownloadModel', auth: true, safe: true },
  getFolders: { method: 'GET', path: 'Folder/GetFolders', auth: true, safe: true },
  getShippingMethods: { method: 'POST', path: 'Shipping/GetShippingMethods', auth: true, safe: true },
  // Not retried by the client: an attempt that may have reached the service is the outbox's to record
  // (as "unanswered") before it sends again, or a retry's definite answer would hide it.
  createOrder: { method: 'POST', path: 'Order/CreateOrder', auth: true, safe: false },
  getOrder: { method: 'GET', path: 'Order/GetOrder', auth: true, safe: true },
  getOrders: { method: 'GET', path: 'Order/GetOrders', auth: true, safe: true },
  // Cancelling twice leaves the order cancelled: safe to repeat.
  cancelOrder: { method: 'DELETE', path: 'Order/CancelOrder', auth: true, safe: true },
  // The library (docs/api-assumptions.md). Renames and moves set a value: repeating them is harmless.
  getModels: { method: 'GET', path: 'Model3D/GetModels', auth: true, safe: true },
  updateModel: { method: 'PUT', path: 'Model3D/UpdateModel', auth: true, safe: true },
  deleteModel: { method: 'DELETE', path: 'Model3D/DeleteModel', auth: true, safe: false },
  createFolder: { method: 'POST', path: 'Folder/CreateFolder', auth: true, safe: false },
  renameFolder: { method: 'PUT', path: 'Folder/RenameFolder', auth: true, safe: true },
  moveFolder: { method: 'PUT', path: 'Folder/MoveFolder', auth: true, safe: true },
  deleteFolder: { method: 'DELETE', path: 'Folder/DeleteFolder', auth: true, safe: false },
  // Uploads. A repeated CreateUpload only leaves an unused session, which expires; appends carry
  // their offset, so the service refuses a repeat (409) instead of storing bytes twice.
  createUpload: { method: 'POST', path: 'Model3D/CreateUpload', auth: true, safe: true },
  getUploadOffset: { method: 'GET', path: 'Model3D/GetUploadOffset', auth: true, safe: true },
  appendUpload: { method: 'PUT', path: 'Model3D/AppendUpload', auth: true, safe: false },
  cancelUpload: { method: 'DELETE', path: 'Model3D/CancelUpload', auth: true, safe: true },
  uploadModel: { method: 'POST', path: 'Model3D/UploadModel', auth: true, safe: false },
} as const satisfies Record<string, Route>;

/** The address of a route at a service, with its query. */
export function routeUrl(baseUrl: string, route: Route, query: Record<string, string> = {}): string {
  const url = new URL(`${baseUrl}/${route.path}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.href;
}

export type RouteName = keyof typeof routes;
