import type { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../../contract/channels.ts';
import { HostError } from './errors.ts';

const SERVICE_TYPES: ReadonlySet<string> = new Set(ERROR_CODES);

export interface RawResponse {
  status: number;
  body: string;
  retryAfterSeconds?: number;
}

/**
 * Turns one HTTP answer into its payload or a HostError. The service's envelope is checked,
 * unknown fields are tolerated, and a missing or mistyped field is named with the endpoint.
 */
export function decodeEnvelope<S extends z.ZodType>(endpoint: string, response: RawResponse, schema: S): z.output<S> {
  const { status } = response;
  const parsed = parseJson(response.body);
  if (status === 429) {
    const message = errorMessage(parsed) ?? 'Too many requests';
    throw new HostError('RATE_LIMITED', message, { status, retryAfterSeconds: response.retryAfterSeconds });
  }
  if (!isRecord(parsed) || typeof parsed.success !== 'boolean') {
    if (status >= 500) throw new HostError('INTERNAL_ERROR', `${endpoint}: the service failed (HTTP ${status})`, { status });
    throw new HostError('INVALID_RESPONSE', `${endpoint}: the answer is not the service's envelope (HTTP ${status}, no "success" field)`, { status });
  }
  if (!parsed.success || status >= 400) throw serviceError(endpoint, status, parsed);
  const result = schema.safeParse(parsed.data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = ['data', ...issue.path.map(String)].join('.');
    throw new HostError('INVALID_RESPONSE', `${endpoint}: unexpected answer, field "${field}": ${issue.message}`, {
      status,
      details: { field },
    });
  }
  return result.data;
}

function serviceError(endpoint: string, status: number, body: Record<string, unknown>): HostError {
  const error = isRecord(body.error) ? body.error : {};
  const type = typeof error.type === 'string' ? error.type : '';
  const message = typeof error.message === 'string' && error.message ? error.message : `${endpoint} failed (HTTP ${status})`;
  return new HostError(codeFor(type, status), message, { status, details: type ? { type } : undefined });
}

function codeFor(type: string, status: number): ErrorCode {
  if (SERVICE_TYPES.has(type)) return type as ErrorCode;
  if (status === 401) return 'AUTHENTICATION';
  if (status === 403) return 'NO_PERMISSION';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 400 && status < 500) return 'INCORRECT_PARAMETERS';
  return 'INTERNAL_ERROR';
}

function errorMessage(body: unknown): string | undefined {
  if (!isRecord(body) || !isRecord(body.error)) return undefined;
  return typeof body.error.message === 'string' ? body.error.message : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
