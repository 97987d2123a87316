import got, { RequestError, TimeoutError } from 'got';
import { HostError } from './errors.ts';
import { parseRetryAfter } from './backoff.ts';
import type { RawResponse } from './envelope.ts';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  json?: unknown;
  timeoutMs: number;
  /** ends the request at once when aborted (Ctrl+C in the CLI): its outcome is then unknown */
  signal?: AbortSignal;
}

export interface HttpResponse extends RawResponse {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Why the service could not be reached, in words for the person reading the notice; the system's own code
 * stays in the error's details for whoever has to look closer.
 */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'nothing is answering at that address',
  ENOTFOUND: 'that address could not be found (is it spelled right, and is this computer online?)',
  EAI_AGAIN: 'its address could not be looked up (is this computer online?)',
  ENETUNREACH: 'this computer has no network route to it (is it online?)',
  EHOSTUNREACH: 'this computer has no network route to it (is it online?)',
  ENETDOWN: 'this computer\'s network is down',
  EHOSTDOWN: 'it does not answer on the network',
};
// The connection broke after the request may have reached the service: the outcome is unknown.
const AMBIGUOUS_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** The plain-words error for a service that cannot be reached, or null when `code` does not mean that. */
export function unreachable(where: string, code: string | undefined, cause: unknown, details: Record<string, unknown> = {}): HostError | null {
  const reason = code ? UNREACHABLE[code] : undefined;
  if (!reason) return null;
  return new HostError('OFFLINE', `Cannot reach the service at ${where}: ${reason}`, { cause, details: { ...details, ambiguous: false, systemCode: code } });
}

/** One HTTP exchange with got, with the network failures turned into HostErrors. */
export async function send(request: HttpRequest): Promise<HttpResponse> {
  try {
    const response = await got(request.url, {
      method: request.method as 'GET',
      headers: { accept: 'application/json', ...request.headers },
      json: request.json,
      timeout: { request: request.timeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      responseType: 'text',
      signal: request.signal,
    });
    return {
      status: response.statusCode,
      body: response.body,
      headers: response.headers,
      retryAfterSeconds: parseRetryAfter(header(response.headers['retry-after'])),
    };
  } catch (error) {
    throw networkError(request, error);
  }
}

export function networkError(request: HttpRequest, error: unknown): HostError {
  const where = new URL(request.url).host;
  if (request.signal?.aborted) return stopped(error);
  if (error instanceof TimeoutError) {
    return new HostError('TIMEOUT', `The service at ${where} did not answer within ${Math.round(request.timeoutMs / 1000)} s`, {
      cause: error,
      details: { ambiguous: true },
    });
  }
  const code = error instanceof RequestError ? error.code : undefined;
  const refused = unreachable(where, code, error);
  if (refused) return refused;
  if (code && AMBIGUOUS_CODES.has(code)) {
    return new HostError('OFFLINE', `The connection to ${where} broke off before the answer came`, { cause: error, details: { ambiguous: true, systemCode: code } });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HostError('OFFLINE', `Request to ${where} failed: ${message}`, { cause: error, details: { ambiguous: true } });
}

/** The request was ended here before its answer came: it may or may not have reached the service. */
export function stopped(cause?: unknown): HostError {
  return new HostError('CANCELLED', 'Stopped before the service answered', { cause, details: { ambiguous: true } });
}

/** Waits `ms`, or ends at once with CANCELLED when `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(stopped());
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), Math.max(0, ms));
    const onAbort = () => (clearTimeout(timer), reject(stopped()));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
