// The resumable-upload protocol's answers (docs/api-assumptions.md, "Resumable uploads" and "Upload
// errors"): what each status means for an upload. The library's upload job acts on these meanings and
// never reads a status itself.
import { decodeEnvelope, type RawResponse } from './envelope.ts';
import { HostError } from './errors.ts';
import { UploadedModel, UploadSession } from './library-schemas.ts';
import { header, type HttpResponse } from './transport.ts';

/** How the service answered an append of bytes to a session. */
export type AppendAnswer =
  | { kind: 'appended'; session: UploadSession }
  /** 409 with the service's offset: ours was stale, or another append is still running (wait as told) */
  | { kind: 'offset-moved'; offset: number; retryAfterSeconds: number | undefined }
  /** 409 without an offset to go on from (the session is not open): ask for the session again */
  | { kind: 'offset-unknown' }
  /** 404: the session is unknown, someone else's or expired; a new one starts from the first byte */
  | { kind: 'session-gone' };

export function readAppend(response: HttpResponse): AppendAnswer {
  if (response.status === 409) {
    const offset = Number(header(response.headers['upload-offset']));
    return Number.isSafeInteger(offset) ? { kind: 'offset-moved', offset, retryAfterSeconds: response.retryAfterSeconds } : { kind: 'offset-unknown' };
  }
  if (response.status === 404) return { kind: 'session-gone' };
  return { kind: 'appended', session: decodeEnvelope('PUT /Model3D/AppendUpload', response, UploadSession) };
}

/** The service refused our offset too many times in a row: counted as one failed attempt, and retried as one. */
export function offsetRefusedAgain(): HostError {
  return new HostError('INTERNAL_ERROR', 'The service keeps refusing our upload offset', { status: 409 });
}

/** CreateUpload's refusal that means this service has no resume endpoints (404/405): send whole files there. */
export function resumeUnsupported(error: unknown): boolean {
  return error instanceof HostError && (error.status === 404 || error.status === 405);
}

/** UploadModel's answer: the model stored (as a finished session), or the service has no upload endpoint. */
export function readWholeUpload(response: RawResponse): UploadSession {
  if (response.status === 404 || response.status === 405) {
    throw new HostError('INTERNAL_ERROR', 'The service has no upload endpoint we know', { status: response.status });
  }
  return decodeEnvelope('POST /Model3D/UploadModel', response, UploadedModel);
}

/** A streamed send refused for its token even after a renewal (401): its envelope's error, thrown. */
export function refuseUnauthorized(endpoint: string, response: RawResponse): void {
  if (response.status === 401) decodeEnvelope(endpoint, response, UploadSession);
}

/**
 * Worth another go at an upload: what any request may retry (the network, the service busy or failing),
 * plus our offset being stale (409) and a chunk that arrived damaged (460, tus's checksum mismatch).
 */
export function uploadRetryable(error: unknown): boolean {
  if (!(error instanceof HostError)) return false;
  if (error.status === 409 || error.status === 460) return true;
  return error.retryable;
}
