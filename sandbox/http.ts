// HTTP plumbing shared by every route: the spec's envelope (section 7), typed API errors and
// bounded JSON body reading. Handlers return a Reply instead of writing to the socket, so the
// pipeline can still drop the answer after acting (the reset-after fault) or hold it (stall).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import type { Duplex, Readable } from 'node:stream';

export type ErrorType =
  | 'AUTHENTICATION'
  | 'NO_PERMISSION'
  | 'INCORRECT_PARAMETERS'
  | 'INTERNAL_ERROR'
  | 'RATE_LIMITED'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** A file sent as the body instead of the JSON envelope (a download); `body` is then ignored. */
  file?: { path: string; size: number; name: string };
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  readonly headers: Record<string, string>;

  constructor(status: number, type: ErrorType, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.type = type;
    this.headers = headers;
  }
}

export function badRequest(message: string): ApiError {
  return new ApiError(400, 'INCORRECT_PARAMETERS', message);
}

export function ok(data: unknown, status = 200): Reply {
  return { status, body: { success: true, data } };
}

export function failure(status: number, type: ErrorType, message: string, headers: Record<string, string> = {}): Reply {
  return { status, body: { success: false, error: { type, message } }, headers };
}

/** Where an unexpected error's text goes, under the incident id its 500 names. */
export type IncidentLog = (incident: string, error: unknown) => void;

/**
 * Any thrown value becomes an envelope; only ApiError keeps its status and message. Anything else is a 500
 * whose message names an incident and nothing more: its text (SQL, paths, a stack) goes to the log under
 * that id, never to the caller (docs/api-assumptions.md, section 7).
 */
export function errorReply(error: unknown, log: IncidentLog): Reply {
  if (error instanceof ApiError) return failure(error.status, error.type, error.message, error.headers);
  const incident = randomBytes(4).toString('hex');
  log(incident, error);
  return failure(500, 'INTERNAL_ERROR', `Unexpected error in the service (incident ${incident}); the service's log has the details`);
}

export function sendReply(res: ServerResponse, reply: Reply, extraHeaders: Record<string, string> = {}): void {
  if (res.destroyed || res.headersSent) return;
  if (reply.file) return sendFile(res, reply.file, { ...extraHeaders, ...reply.headers });
  const payload = Buffer.from(JSON.stringify(reply.body), 'utf8');
  res.writeHead(reply.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(payload.length),
    'Cache-Control': 'no-store',
    ...extraHeaders,
    ...reply.headers,
  });
  res.end(payload);
}

export const JSON_BODY_LIMIT = 1024 * 1024;
// Past this we stop draining and drop the connection: answering a 413 needs the client to have
// finished sending, but nobody should be allowed to stream gigabytes at us for it.
const DRAIN_LIMIT = 64 * 1024 * 1024;

export type JsonBody = { kind: 'empty' } | { kind: 'json'; value: unknown };

/**
 * Reads a JSON body. An empty body is not an error here: GetShippingMethods must answer it with
 * its own message ("Request body is empty"), so the route decides.
 */
export async function readJsonBody(req: IncomingMessage, limit = JSON_BODY_LIMIT, source: Readable = req): Promise<JsonBody> {
  const raw = await readBounded(req, limit, source);
  if (raw.length === 0) return { kind: 'empty' };
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new ApiError(415, 'INCORRECT_PARAMETERS', 'Content-Type must be application/json');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw badRequest('Request body is not valid UTF-8');
  }
  if (text.trim() === '') return { kind: 'empty' };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
}

export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const mediaType = header.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

async function readBounded(req: IncomingMessage, limit: number, source: Readable): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > DRAIN_LIMIT) {
    req.socket.destroy();
    throw new ApiError(413, 'INCORRECT_PARAMETERS', `Request body is larger than ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > DRAIN_LIMIT) {
      req.socket.destroy();
      break;
    }
    if (received <= limit) chunks.push(chunk);
  }
  if (received > limit) {
    throw new ApiError(413, 'INCORRECT_PARAMETERS', `Request body is larger than ${limit} bytes`);
  }
  return Buffer.concat(chunks);
}

/** The body as a plain object, or the route's "empty body" / "not an object" failure. */
export function requireObject(body: JsonBody): Record<string, unknown> {
  if (body.kind === 'empty') throw badRequest('Request body is empty');
  const value = body.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/**
 * Node answers unparseable HTTP with a bare text 400; this keeps the envelope even there.
 * Wired to the server's 'clientError' event.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const message = tooLarge ? 'Request headers are too large' : `Malformed HTTP request (${error.code ?? 'parse error'})`;
  const body = JSON.stringify({ success: false, error: { type: 'INCORRECT_PARAMETERS', message } });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Streams a stored file: raw bytes, its length up front, and its name for a save dialog. */
function sendFile(res: ServerResponse, file: NonNullable<Reply['file']>, headers: Record<string, string>): void {
  res.writeHead(200, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(file.size),
    'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    'Cache-Control': 'no-store',
    ...headers,
  });
  // A file that vanished mid-send can only end the connection: the status is already out.
  pipeline(createReadStream(file.path), res, () => {});
}
