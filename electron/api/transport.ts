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
}

export interface HttpResponse extends RawResponse {
  headers: Record<string, string | string[] | undefined>;
}

const OFFLINE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN']);
// The connection broke after the request may have reached the service: the outcome is unknown.
const AMBIGUOUS_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

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
  if (error instanceof TimeoutError) {
    return new HostError('TIMEOUT', `The service at ${where} did not answer within ${Math.round(request.timeoutMs / 1000)} s`, {
      cause: error,
      details: { ambiguous: true },
    });
  }
  const code = error instanceof RequestError ? error.code : undefined;
  if (code && OFFLINE_CODES.has(code)) {
    return new HostError('OFFLINE', `Cannot reach the service at ${where} (${code})`, { cause: error, details: { ambiguous: false } });
  }
  if (code && AMBIGUOUS_CODES.has(code)) {
    return new HostError('OFFLINE', `The connection to ${where} was interrupted (${code})`, { cause: error, details: { ambiguous: true } });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new HostError('OFFLINE', `Request to ${where} failed: ${message}`, { cause: error, details: { ambiguous: true } });
}

export function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
