// The only module that touches window.printdesk. Whether it came from Electron's preload or the
// browser-mode bridge is invisible from here.
import type { PrintdeskApi } from '../../electron/contract/bridge-api.ts';
import type { AppError, Result } from '../../electron/contract/channels.ts';

declare global {
  interface Window {
    printdesk: PrintdeskApi;
  }
}

export const printdesk: PrintdeskApi = window.printdesk;

/** Thrown by `unwrap` so views can catch one error type with the host's code and message. */
export class UiError extends Error {
  readonly error: AppError;
  constructor(error: AppError) {
    super(error.message);
    this.error = error;
  }
}

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new UiError(result.error);
  return result.value;
}

export function asAppError(error: unknown): AppError {
  if (error instanceof UiError) return error.error;
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error), retryable: false };
}

/** Runs a user's action and returns what went wrong, if anything, for the view to show. */
export async function attempt(action: () => Promise<unknown>): Promise<AppError | null> {
  try {
    await action();
    return null;
  } catch (error) {
    return asAppError(error);
  }
}
