import type { AppError, ErrorCode } from '../../contract/channels.ts';
import { inGroup } from '../../../common/errors.ts';

/** An error that crosses the host boundary as an AppError: the service's or the client's own. */
export class HostError extends Error {
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { status?: number; retryAfterSeconds?: number; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'HostError';
    this.code = code;
    this.status = options.status;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
  }

  get retryable(): boolean {
    return inGroup('retryable', this.code);
  }

  toAppError(): AppError {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: this.retryAfterSeconds }),
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

/** The service could not be reached, or did not answer in time: what was last seen may stand in. */
export function isUnreachable(error: unknown): boolean {
  return error instanceof HostError && inGroup('unreachable', error.code);
}

/**
 * Whether a failed request may still have been acted on: no answer in time, a connection cut after it was
 * sent, or a 5xx or garbled answer. A refused connection or a 429 never reached the service's logic.
 */
export function mayHaveActed(error: unknown): boolean {
  if (!(error instanceof HostError)) return true;
  if (error.code === 'OFFLINE' && error.details?.ambiguous === false) return false;
  return inGroup('mayHaveActed', error.code);
}

/** The service has no such thing (404): a model, folder or upload session gone, or never there. */
export function isNotFound(error: unknown): boolean {
  return error instanceof HostError && error.status === 404;
}

export function toAppError(error: unknown): AppError {
  if (error instanceof HostError) return error.toAppError();
  const message = error instanceof Error ? error.message : String(error);
  // Not the service's answer but a fault of PrintDesk's own: said so, so the service is not blamed for it.
  return { code: 'INTERNAL_ERROR', message: `Unexpected error: ${message}`, retryable: false, details: { inApp: true } };
}
