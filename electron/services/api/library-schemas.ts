// What the library needs from the service's answers about models, folders and uploads. Like
// schemas.ts: objects are not strict, unknown fields are dropped, and only what the app uses is
// required; where the spec says "not shown", common alternative shapes are accepted too.
import { z } from 'zod';
import type { Folder, Model, ModelPage } from '../../contract/schemas/library.ts';

const optionalText = z.string().nullable().optional().transform((v) => v ?? null);
const optionalNumber = z.number().nullable().optional().transform((v) => v ?? null);

export const ServiceModel = z
  .object({
    modelId: z.string().optional(),
    id: z.string().optional(),
    projectId: optionalText,
    folderId: optionalText,
    name: z.string().optional(),
    fileName: z.string().optional(),
    format: optionalText,
    sizeBytes: optionalNumber,
    sha256: optionalText,
    createdAt: optionalText,
  })
  .refine((m) => m.modelId ?? m.id, { message: 'model has no modelId', path: ['modelId'] })
  .transform((m): Model => ({
    modelId: (m.modelId ?? m.id) as string,
    projectId: m.projectId,
    folderId: m.folderId,
    name: m.name ?? m.fileName ?? ((m.modelId ?? m.id) as string),
    fileName: m.fileName ?? m.name ?? null,
    format: m.format,
    sizeBytes: m.sizeBytes,
    sha256: m.sha256?.toLowerCase() ?? null,
    createdAt: m.createdAt,
  }));

/** `{ models, page, pageSize, total }`, or a bare array (one page holding everything). */
export const ServiceModelPage = z.union([
  z
    .object({ models: z.array(ServiceModel), page: z.number().optional(), pageSize: z.number().optional(), total: z.number().optional() })
    .transform((d): ModelPage => ({ models: d.models, page: d.page ?? 1, pageSize: d.pageSize ?? d.models.length, total: d.total ?? d.models.length })),
  z.array(ServiceModel).transform((models): ModelPage => ({ models, page: 1, pageSize: models.length, total: models.length })),
]);

export const ServiceFolder = z
  .object({
    folderId: z.string().optional(),
    id: z.string().optional(),
    projectId: optionalText,
    parentFolderId: optionalText,
    parentId: optionalText,
    name: z.string().optional(),
    folderName: z.string().optional(),
    modelCount: optionalNumber,
    createdAt: optionalText,
  })
  .refine((f) => f.folderId ?? f.id, { message: 'folder has no folderId', path: ['folderId'] })
  .transform((f): Folder => ({
    folderId: (f.folderId ?? f.id) as string,
    projectId: f.projectId,
    parentFolderId: f.parentFolderId ?? f.parentId,
    name: f.name ?? f.folderName ?? ((f.folderId ?? f.id) as string),
    modelCount: f.modelCount,
    createdAt: f.createdAt,
  }));

/** `{ folders: [...] }` or a bare array. */
export const FolderList = z
  .union([z.array(ServiceFolder), z.object({ folders: z.array(ServiceFolder) })])
  .transform((d) => (Array.isArray(d) ? d : d.folders));

/** Any success answer of a delete: only `success: true` matters. */
export const Acknowledged = z.unknown().transform(() => true as const);

/**
 * An upload session's state (CreateUpload, GetUploadOffset, AppendUpload, UploadModel). A
 * finished upload carries the model; `duplicate` says the project already had these bytes.
 */
export const UploadSession = z
  .object({
    uploadId: optionalText,
    offset: z.number().int().nonnegative().optional(),
    sizeBytes: optionalNumber,
    state: optionalText,
    complete: z.boolean().optional(),
    chunkSizeLimit: optionalNumber,
    duplicate: z.boolean().optional(),
    model: ServiceModel.nullable().optional(),
  })
  .transform((u) => ({
    uploadId: u.uploadId,
    offset: u.offset ?? 0,
    sizeBytes: u.sizeBytes,
    state: u.state,
    complete: u.complete ?? (u.state === 'complete' || Boolean(u.model)),
    chunkSizeLimit: u.chunkSizeLimit,
    duplicate: u.duplicate ?? false,
    model: u.model ?? null,
  }));
export type UploadSession = z.output<typeof UploadSession>;

/** A whole-file upload may answer with the session shape, `{ model }`, or the bare model record. */
export const UploadedModel = z.union([
  UploadSession.refine((u) => u.model !== null, { message: 'no model in the answer' }),
  ServiceModel.transform((model): UploadSession => ({
    uploadId: null, offset: model.sizeBytes ?? 0, sizeBytes: model.sizeBytes, state: 'complete', complete: true, chunkSizeLimit: null, duplicate: false, model,
  })),
]);
