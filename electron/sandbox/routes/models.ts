// GET /Model3D/GetModelData: one model's record; 404 if unknown, 403 if in someone else's project.
import { ApiError, ok } from '../http.ts';
import type { Route } from '../router.ts';
import { hasProjectAccess } from '../store/accounts.ts';
import { findModel } from '../store/models.ts';
import { requireGuid } from '../validate.ts';

export const getModelData: Route = {
  method: 'GET',
  path: '/Model3D/GetModelData',
  auth: true,
  body: 'none',
  handle(ctx) {
    const modelId = requireGuid(ctx.query.get('modelId'), 'Model id');
    const model = findModel(ctx.services.db, modelId);
    if (!model) throw new ApiError(404, 'NOT_FOUND', `Model ${modelId} does not exist`);
    if (!hasProjectAccess(ctx.services.db, ctx.user!.user_id, model.record.projectId)) {
      throw new ApiError(403, 'NO_PERMISSION', `You have no access to the project of model ${modelId}`);
    }
    return ok(model.record);
  },
};
