import { z } from 'zod';

export const ERROR_CODES = [
  // the service's own error types
  'AUTHENTICATION',
  'NO_PERMISSION',
  'INCORRECT_PARAMETERS',
  'INTERNAL_ERROR',
  'RATE_LIMITED',
  // the client's
  'OFFLINE',
  'TIMEOUT',
  'NOT_SIGNED_IN',
  'NO_PROJECT',
  'INVALID_INPUT',
  'INVALID_RESPONSE',
  'FILE_UNREADABLE',
  'FILE_INVALID',
  'CANCELLED',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;
