// Validation shared by GetShippingMethods and CreateOrder: country codes, model entries (spec
// 2.4) and the models they name. Messages follow the wording of the spec's validation table.
import { findCountry } from './countries.ts';
import type { Country } from './countries.ts';
import type { Db } from './db/open.ts';
import { ApiError, badRequest } from './http.ts';
import { hasProjectAccess } from './store/accounts.ts';
import { findModel } from './store/models.ts';
import { isGuid } from './validate.ts';

export const MAX_MODEL_ENTRIES = 100;
/** Copies of one model in an entry (docs/api-assumptions.md, CreateOrder). */
const MAX_QUANTITY = 10_000;

export interface ModelEntry {
  modelId: string;
  quantity: number;
}

export function parseCountry(value: unknown): Country {
  if (value === undefined || value === null || value === '') throw badRequest('Country is not set');
  if (typeof value !== 'string') throw badRequest('Country must be a string');
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{2,3}$/.test(code)) throw badRequest('Country must be an ISO 3166-1 alpha-2 or alpha-3 code of at most 3 letters');
  const country = findCountry(code);
  if (!country) throw badRequest(`Country ${code} is not a known ISO 3166-1 country code`);
  return country;
}

export function parseModelEntries(value: unknown): ModelEntry[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest('Models must be a non-empty array of {modelId, quantity}');
  if (value.length > MAX_MODEL_ENTRIES) throw badRequest(`Models may hold at most ${MAX_MODEL_ENTRIES} entries`);
  return value.map((entry: unknown, index) => {
    const item = (entry ?? {}) as { modelId?: unknown; quantity?: unknown };
    if (typeof entry !== 'object' || Array.isArray(entry)) throw badRequest(`models[${index}] must be an object`);
    if (item.modelId === undefined || item.modelId === null || item.modelId === '') throw badRequest(`models[${index}].modelId is not set`);
    if (!isGuid(item.modelId)) throw badRequest(`models[${index}].modelId must be a GUID`);
    const { quantity } = item;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
      throw badRequest(`models[${index}].quantity must be a whole number from 1 to ${MAX_QUANTITY}`);
    }
    return { modelId: item.modelId.toLowerCase(), quantity };
  });
}

/**
 * Checks that every model exists and sits in a project the user can access (403 otherwise),
 * and returns the total default shipping weight.
 */
export function resolveModels(db: Db, userId: string, entries: ModelEntry[], projectId?: string): { weightGrams: number } {
  let weightGrams = 0;
  for (const entry of entries) {
    const model = findModel(db, entry.modelId);
    if (!model) throw badRequest(`Model ${entry.modelId} does not exist`);
    if (!hasProjectAccess(db, userId, model.record.projectId)) {
      throw new ApiError(403, 'NO_PERMISSION', `You have no access to the project of model ${entry.modelId}`);
    }
    if (projectId !== undefined && model.record.projectId !== projectId) {
      throw badRequest(`Model ${entry.modelId} does not belong to project ${projectId}`);
    }
    weightGrams += model.weightGrams * entry.quantity;
  }
  return { weightGrams };
}
