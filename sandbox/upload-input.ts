// Validation shared by the upload routes: where the model goes (project, folder, names), its
// declared size and hash, and the raw body's headers.
import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest } from './http.ts';
import type { RouteContext } from './router.ts';
import { parentIn } from './store/folders.ts';
import { modelFormatOf } from './store/models.ts';
import { MAX_UPLOAD_BYTES } from './upload-files.ts';
import { optionalGuid, requireGuid, requireName } from './validate.ts';
import { requireProjectAccess } from './routes/folders.ts';

export interface UploadTarget {
  projectId: string;
  folderId: string | null;
  fileName: string;
  name: string;
  sha256: string | null;
  allowDuplicate: boolean;
}

/** Reads the target from a JSON body (CreateUpload) or a query string (UploadModel) alike. */
export function parseUploadTarget(ctx: RouteContext, get: (key: string) => unknown): UploadTarget {
  const projectId = requireGuid(get('projectId'), 'projectId');
  const folderId = optionalGuid(get('folderId'), 'folderId');
  const fileName = requireName(get('fileName'), 'fileName', 255);
  if (/[/\\]/.test(fileName)) throw badRequest('fileName must be a file name, not a path');
  if (!modelFormatOf(fileName)) throw badRequest('fileName must end in .stl, .obj or .3mf');
  const rawName = get('name');
  const name = rawName === undefined || rawName === null || rawName === '' ? defaultName(fileName) : requireName(rawName, 'name');
  const sha = get('sha256');
  if (sha !== undefined && sha !== null && sha !== '' && !(typeof sha === 'string' && /^[0-9a-f]{64}$/i.test(sha))) {
    throw badRequest('sha256 must be 64 hexadecimal digits');
  }
  const allow = get('allowDuplicate');
  if (allow !== undefined && allow !== null && ![true, false, 'true', 'false'].includes(allow as never)) {
    throw badRequest('allowDuplicate must be true or false');
  }
  requireProjectAccess(ctx, projectId);
  if (folderId) parentIn(ctx.services.db, projectId, folderId);
  return { projectId, folderId, fileName, name, sha256: typeof sha === 'string' && sha ? sha.toLowerCase() : null, allowDuplicate: allow === true || allow === 'true' };
}

function defaultName(fileName: string): string {
  return fileName.slice(0, fileName.lastIndexOf('.')).slice(0, 100) || fileName.slice(0, 100);
}

export function requireSize(value: unknown): number {
  if (value === undefined || value === null) throw badRequest('sizeBytes is not set');
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw badRequest('sizeBytes must be a whole number of bytes');
  if (value === 0) throw badRequest('The file is empty (sizeBytes 0)');
  if (value > MAX_UPLOAD_BYTES) throw tooLarge();
  return value;
}

export function tooLarge(): ApiError {
  // Connection: close, or Node would read and discard up to the whole oversized body first.
  return new ApiError(413, 'INCORRECT_PARAMETERS', `A model file may hold at most ${MAX_UPLOAD_BYTES} bytes (512 MiB)`, { Connection: 'close' });
}

/** Raw bodies only: tus's application/offset+octet-stream is accepted too. */
export function requireOctetStream(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/octet-stream' && type !== 'application/offset+octet-stream') {
    throw new ApiError(415, 'INCORRECT_PARAMETERS', 'Content-Type must be application/octet-stream (the raw file bytes)');
  }
}

export function contentLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  return value === undefined ? undefined : Number(value);
}

/** `Upload-Checksum: sha256 <base64 digest>` (the tus checksum extension), or undefined. */
export function parseChecksum(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const [algorithm, digest, extra] = String(header).trim().split(/\s+/);
  if (algorithm?.toLowerCase() !== 'sha256' || !digest || extra !== undefined) {
    throw badRequest('Upload-Checksum must be "sha256 <base64 digest>"');
  }
  return digest;
}
