// Every route the sandbox serves, in one table.
import type { Route } from '../router.ts';
import { login, refreshToken } from './auth.ts';
import { getModelData } from './models.ts';
import { createOrder } from './orders.ts';
import { getProjects, hasAccessToProject } from './projects.ts';
import { getShippingMethods } from './shipping.ts';

export const ROUTES: readonly Route[] = [login, refreshToken, getProjects, hasAccessToProject, getModelData, getShippingMethods, createOrder];
