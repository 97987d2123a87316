// Shapes of folders, models and uploads as they cross the contract (mirrors electron/library's types).
import { z } from 'zod';
import { ErrorCode } from './errors.ts';

const nullableText = z.string().nullable();

export const Folder = z.object({
  folderId: z.string(),
  projectId: nullableText,
  parentFolderId: nullableText,
  name: z.string(),
  modelCount: z.number().nullable(),
  createdAt: nullableText,
});
export type Folder = z.infer<typeof Folder>;

export const Model = z.object({
  modelId: z.string(),
  projectId: nullableText,
  folderId: nullableText,
  name: z.string(),
  fileName: nullableText,
  format: nullableText,
  sizeBytes: z.number().nullable(),
  sha256: nullableText,
  createdAt: nullableText,
});
export type Model = z.infer<typeof Model>;

export const ModelPage = z.object({
  models: z.array(Model),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
  /** set when the service could not be reached: the models as they were last listed, at this time */
  asOf: z.string().optional(),
});
export type ModelPage = z.infer<typeof ModelPage>;

export const ModelQuery = z.object({
  projectId: z.string().max(64),
  folderId: z.string().max(64).nullable().optional(),
  search: z.string().max(200).optional(),
  sort: z.enum(['name', 'createdAt', 'sizeBytes']).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  page: z.number().int().min(1).optional(),
  pageSize: z.number().int().min(1).max(200).optional(),
});

export const UPLOAD_STATES = ['queued', 'hashing', 'uploading', 'paused', 'done', 'failed', 'cancelled'] as const;

export const UploadItem = z.object({
  id: z.string(),
  projectId: z.string(),
  folderId: nullableText,
  path: z.string(),
  fileName: z.string(),
  sizeBytes: z.number(),
  sha256: nullableText,
  state: z.enum(UPLOAD_STATES),
  bytesSent: z.number(),
  bytesTransferred: z.number(),
  modelId: nullableText,
  duplicate: z.boolean(),
  error: z.object({ code: ErrorCode, message: z.string(), retryable: z.boolean() }).nullable(),
  attempts: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UploadItem = z.infer<typeof UploadItem>;

export const UploadProgress = z.object({
  id: z.string(),
  bytesSent: z.number(),
  sizeBytes: z.number(),
  bytesPerSecond: z.number(),
  etaSeconds: z.number().nullable(),
});
export type UploadProgress = z.infer<typeof UploadProgress>;

export const EnqueueResult = z.object({
  added: z.array(UploadItem),
  rejected: z.array(z.object({ path: z.string(), code: z.enum(['FILE_UNREADABLE', 'FILE_INVALID']), message: z.string() })),
  alreadyQueued: z.array(UploadItem),
  /** 3MF files that break the specification, held until the user says to upload them anyway */
  held: z.array(z.object({ path: z.string(), fileName: z.string(), message: z.string() })),
});
export type EnqueueResult = z.infer<typeof EnqueueResult>;
