// GET /Folder/GetFolders (spec section 4) and the folder operations the spec leaves "not shown":
// CreateFolder, RenameFolder, MoveFolder, DeleteFolder (docs/api-assumptions.md).
import { ApiError, ok, requireObject } from '../http.ts';
import type { Route, RouteContext } from '../router.ts';
import { hasProjectAccess } from '../store/accounts.ts';
import { createFolder, deleteFolder, findFolder, listFolders, moveFolder, renameFolder } from '../store/folders.ts';
import type { FolderRecord } from '../store/folders.ts';
import { optionalGuid, requireGuid, requireName } from '../validate.ts';

export function requireProjectAccess(ctx: RouteContext, projectId: string): void {
  if (!hasProjectAccess(ctx.services.db, ctx.user!.user_id, projectId)) {
    throw new ApiError(403, 'NO_PERMISSION', `You have no access to project ${projectId}`);
  }
}

/** A folder the caller may change: 404 if unknown, 403 if in a project they cannot access. */
function accessibleFolder(ctx: RouteContext, value: unknown): FolderRecord {
  const folderId = requireGuid(value, 'folderId');
  const folder = findFolder(ctx.services.db, folderId);
  if (!folder) throw new ApiError(404, 'NOT_FOUND', `Folder ${folderId} does not exist`);
  requireProjectAccess(ctx, folder.projectId);
  return folder;
}

export const getFolders: Route = {
  method: 'GET',
  path: '/Folder/GetFolders',
  auth: true,
  body: 'none',
  handle(ctx) {
    const projectId = requireGuid(ctx.query.get('projectId'), 'Project id');
    requireProjectAccess(ctx, projectId);
    return ok({ folders: listFolders(ctx.services.db, projectId) });
  },
};

export const createFolderRoute: Route = {
  method: 'POST',
  path: '/Folder/CreateFolder',
  auth: true,
  body: 'json',
  handle(ctx) {
    const body = requireObject(ctx.body);
    const projectId = requireGuid(body.projectId, 'projectId');
    const name = requireName(body.name, 'name');
    const parentFolderId = optionalGuid(body.parentFolderId, 'parentFolderId');
    requireProjectAccess(ctx, projectId);
    return ok(createFolder(ctx.services.db, { projectId, parentFolderId, name }));
  },
};

export const renameFolderRoute: Route = {
  method: 'PUT',
  path: '/Folder/RenameFolder',
  auth: true,
  body: 'json',
  handle(ctx) {
    const body = requireObject(ctx.body);
    const folderId = requireGuid(body.folderId, 'folderId');
    const name = requireName(body.name, 'name');
    const folder = accessibleFolder(ctx, folderId);
    return ok(renameFolder(ctx.services.db, folder.folderId, name));
  },
};

export const moveFolderRoute: Route = {
  method: 'PUT',
  path: '/Folder/MoveFolder',
  auth: true,
  body: 'json',
  handle(ctx) {
    const body = requireObject(ctx.body);
    const folderId = requireGuid(body.folderId, 'folderId');
    // null (or absent) moves the folder to the top of the project.
    const parentFolderId = optionalGuid(body.parentFolderId, 'parentFolderId');
    const folder = accessibleFolder(ctx, folderId);
    return ok(moveFolder(ctx.services.db, folder, parentFolderId));
  },
};

export const deleteFolderRoute: Route = {
  method: 'DELETE',
  path: '/Folder/DeleteFolder',
  auth: true,
  body: 'none',
  handle(ctx) {
    const folder = accessibleFolder(ctx, ctx.query.get('folderId'));
    deleteFolder(ctx.services.db, folder.folderId);
    return ok({ folderId: folder.folderId, deleted: true });
  },
};

export const FOLDER_ROUTES: readonly Route[] = [getFolders, createFolderRoute, renameFolderRoute, moveFolderRoute, deleteFolderRoute];
