// Shapes of folders, models and uploads as they cross the contract: the one declaration of each, every
// type of them (in electron/library as in the renderer) is inferred from here.
import { z } from 'zod';
import type { ModelFacts } from '../../../common/models/index.ts';
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
  /** a folder's models; null = those outside any folder; absent = the whole project */
  folderId: z.string().max(64).nullable().optional(),
  search: z.string().max(200).optional(),
  sort: z.enum(['name', 'createdAt', 'sizeBytes']).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  /** 1-based */
  page: z.number().int().min(1).optional(),
  pageSize: z.number().int().min(1).max(200).optional(),
});
export type ModelQuery = z.infer<typeof ModelQuery>;
export type ModelSort = NonNullable<ModelQuery['sort']>;

export const UPLOAD_STATES = ['queued', 'hashing', 'uploading', 'paused', 'done', 'failed', 'cancelled'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];

export const UploadError = z.object({ code: ErrorCode, message: z.string(), retryable: z.boolean() });
export type UploadError = z.infer<typeof UploadError>;

/** One file in the queue, as the renderer sees it. */
export const UploadItem = z.object({
  id: z.string(),
  projectId: z.string(),
  folderId: nullableText,
  path: z.string(),
  fileName: z.string(),
  sizeBytes: z.number(),
  sha256: nullableText,
  state: z.enum(UPLOAD_STATES),
  /** bytes the service has confirmed (its offset) */
  bytesSent: z.number(),
  /** body bytes put on the wire over every attempt: above sizeBytes by what interruptions cost */
  bytesTransferred: z.number(),
  modelId: nullableText,
  /** the bytes were already in the project, or in an earlier item of this queue */
  duplicate: z.boolean(),
  error: UploadError.nullable(),
  attempts: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UploadItem = z.infer<typeof UploadItem>;

export const UploadProgress = z.object({
  id: z.string(),
  bytesSent: z.number(),
  sizeBytes: z.number(),
  /** over the last few seconds; 0 until there is something to measure */
  bytesPerSecond: z.number(),
  /** null while the rate is unknown */
  etaSeconds: z.number().nullable(),
});
export type UploadProgress = z.infer<typeof UploadProgress>;

/** A file that failed its check before it was queued. */
export const Rejection = z.object({ path: z.string(), code: z.enum(['FILE_UNREADABLE', 'FILE_INVALID']), message: z.string() });
export type Rejection = z.infer<typeof Rejection>;

export const EnqueueResult = z.object({
  added: z.array(UploadItem),
  /** failed their check; also listed in the queue as failed items, so the error list shows them */
  rejected: z.array(Rejection),
  /** the same file (path, size, time) is already queued or done in this project */
  alreadyQueued: z.array(UploadItem),
  /** 3MF files that break the specification, held until the user says to upload them anyway (acceptSpecBreaches) */
  held: z.array(z.object({ path: z.string(), fileName: z.string(), message: z.string() })),
});
export type EnqueueResult = z.infer<typeof EnqueueResult>;

/**
 * A large model's first picture, sent ahead of its file (model-pictures.ts): its measures and the proxy
 * the preview draws first, packed (common/models/packed-triangles.ts: each point once, as 16-bit steps
 * across `box`, and the corners' points as varints; RGBA per corner for colours). Its facts are the
 * shared parser's, passed through as they are.
 */
export const ModelPicture = z.object({
  format: z.enum(['stl-binary', 'stl-ascii', 'obj', '3mf']),
  facts: z.custom<ModelFacts>((value) => typeof value === 'object' && value !== null && typeof (value as ModelFacts).triangles === 'number', 'Expected the model facts'),
  box: z.array(z.number()).length(6),
  points: z.instanceof(Uint8Array),
  corners: z.instanceof(Uint8Array),
  triangles: z.number().int().nonnegative(),
  colors: z.instanceof(Uint8Array).optional(),
});
export type ModelPicture = z.infer<typeof ModelPicture>;
