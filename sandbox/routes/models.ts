// GET /Model3D/GetModelData (spec section 4) and the library operations it leaves "not shown":
// GetModels (paginated, per project or folder, search and sort), UpdateModel (rename, move), DeleteModel,
// DownloadModel (the stored bytes).
import { statSync } from 'node:fs';
import { ApiError, badRequest, ok, requireObject } from '../http.ts';
import type { Route, RouteContext } from '../router.ts';
import { hasProjectAccess } from '../store/accounts.ts';
import { parentIn } from '../store/folders.ts';
import { deleteModel, listModels, MODEL_SORTS, updateModel } from '../store/model-library.ts';
import type { ModelSort } from '../store/model-library.ts';
import { findModel, modelFilePath } from '../store/models.ts';
import type { ModelRecord } from '../store/models.ts';
import { optionalGuid, parsePaging, requireGuid, requireName } from '../validate.ts';
import { requireProjectAccess } from './folders.ts';

/** A model the caller may see: 404 if unknown (or deleted), 403 if in a project they cannot access. */
function accessibleModel(ctx: RouteContext, value: unknown, label = 'Model id'): ModelRecord {
  const modelId = requireGuid(value, label);
  const model = findModel(ctx.services.db, modelId);
  if (!model) throw new ApiError(404, 'NOT_FOUND', `Model ${modelId} does not exist`);
  if (!hasProjectAccess(ctx.services.db, ctx.user!.user_id, model.record.projectId)) {
    throw new ApiError(403, 'NO_PERMISSION', `You have no access to the project of model ${modelId}`);
  }
  return model.record;
}

export const getModelData: Route = {
  method: 'GET',
  path: '/Model3D/GetModelData',
  auth: true,
  body: 'none',
  handle(ctx) {
    return ok(accessibleModel(ctx, ctx.query.get('modelId')));
  },
};

/** The stored bytes of a model, for previews of models added elsewhere (docs/api-assumptions.md). */
export const downloadModel: Route = {
  method: 'GET',
  path: '/Model3D/DownloadModel',
  auth: true,
  body: 'none',
  handle(ctx) {
    const model = accessibleModel(ctx, ctx.query.get('modelId'));
    const file = modelFilePath(ctx.services.dataDir, model.sha256);
    const size = statSync(file, { throwIfNoEntry: false })?.size;
    if (size === undefined) throw new ApiError(404, 'NOT_FOUND', `The file of model ${model.modelId} is missing`);
    return { status: 200, body: null, file: { path: file, size, name: model.fileName } };
  },
};

export const getModels: Route = {
  method: 'GET',
  path: '/Model3D/GetModels',
  auth: true,
  body: 'none',
  handle(ctx) {
    const { query } = ctx;
    const projectId = requireGuid(query.get('projectId'), 'Project id');
    const folderParam = query.get('folderId');
    // "root" names the models outside any folder; no folderId lists the whole project.
    const folderId = folderParam === null || folderParam === '' ? undefined : folderParam === 'root' ? null : requireGuid(folderParam, 'Folder id');
    const sort = query.get('sort') ?? 'createdAt';
    // Its own keys only: `in` would also take __proto__, constructor or toString, whose values then reached the SQL.
    if (!Object.hasOwn(MODEL_SORTS, sort)) throw badRequest(`sort must be one of ${Object.keys(MODEL_SORTS).join(', ')}`);
    const order = query.get('order') ?? (sort === 'name' ? 'asc' : 'desc');
    if (order !== 'asc' && order !== 'desc') throw badRequest('order must be asc or desc');
    const search = query.get('search')?.trim().normalize('NFC') ?? '';
    if (search.length > 100) throw badRequest('search must be at most 100 characters');
    const paging = parsePaging(query);
    requireProjectAccess(ctx, projectId);
    if (folderId) parentIn(ctx.services.db, projectId, folderId);
    const result = listModels(ctx.services.db, {
      projectId, folderId, search: search || undefined, sort: sort as ModelSort, descending: order === 'desc', ...paging,
    });
    return ok({ models: result.models, ...paging, total: result.total });
  },
};

export const updateModelRoute: Route = {
  method: 'PUT',
  path: '/Model3D/UpdateModel',
  auth: true,
  body: 'json',
  handle(ctx) {
    const body = requireObject(ctx.body);
    const modelId = requireGuid(body.modelId, 'modelId');
    const name = body.name === undefined ? undefined : requireName(body.name, 'name');
    // folderId: absent = leave; null = out of any folder; a GUID = into that folder.
    const folderId = 'folderId' in body ? optionalGuid(body.folderId, 'folderId') : undefined;
    if (name === undefined && folderId === undefined) throw badRequest('Give name or folderId to change');
    const model = accessibleModel(ctx, modelId, 'modelId');
    if (folderId) parentIn(ctx.services.db, model.projectId, folderId);
    return ok(updateModel(ctx.services.db, model.modelId, { name, folderId }));
  },
};

export const deleteModelRoute: Route = {
  method: 'DELETE',
  path: '/Model3D/DeleteModel',
  auth: true,
  body: 'none',
  handle(ctx) {
    const model = accessibleModel(ctx, ctx.query.get('modelId'));
    deleteModel(ctx.services.db, ctx.services.dataDir, model);
    return ok({ modelId: model.modelId, deleted: true });
  },
};

export const MODEL_ROUTES: readonly Route[] = [getModelData, downloadModel, getModels, updateModelRoute, deleteModelRoute];
