// Every route the sandbox serves, in one table.
import type { Route } from '../router.ts';
import { login, refreshToken } from './auth.ts';
import { FOLDER_ROUTES } from './folders.ts';
import { MODEL_ROUTES } from './models.ts';
import { ORDER_QUERY_ROUTES } from './order-queries.ts';
import { createOrder } from './orders.ts';
import { getProjects, hasAccessToProject } from './projects.ts';
import { getShippingMethods } from './shipping.ts';
import { uploadModel } from './upload-model.ts';
import { UPLOAD_ROUTES } from './uploads.ts';

export const ROUTES: readonly Route[] = [
  login,
  refreshToken,
  getProjects,
  hasAccessToProject,
  ...MODEL_ROUTES,
  ...UPLOAD_ROUTES,
  uploadModel,
  ...FOLDER_ROUTES,
  getShippingMethods,
  createOrder,
  ...ORDER_QUERY_ROUTES,
];
