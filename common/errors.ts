// THE error codes that cross the host boundary (AppError.code), each with what it means, and the named
// groups that decide what happens next. Host and renderer both read this; docs/errors.md says who raises
// each code. Pure: no zod, no Node, no DOM.

/** Every code, with its line: what happened, as a developer reads it. */
export const ERROR_MEANINGS = {
  // the service's own error types (its envelope's `error.type`, or the HTTP status when the type is unknown)
  AUTHENTICATION: 'The service did not take the credentials or the access token (401): sign in again.',
  NO_PERMISSION: 'The service refused for lack of access (403), e.g. to a project no longer assigned to the account.',
  INCORRECT_PARAMETERS: 'The service refused the request as asked (any other 4xx: 400, 404, 409, 413, 422, 460…): sending it again as is will not help.',
  INTERNAL_ERROR: 'The service failed (5xx), or PrintDesk did (details.inApp): worth trying again later.',
  RATE_LIMITED: 'The service asked to slow down (429); retryAfterSeconds says for how long.',
  // the client's
  OFFLINE: 'The service could not be reached: no connection, a refused or reset connection, Work offline, or the embedded sandbox stopped.',
  TIMEOUT: 'The service did not answer in time.',
  NOT_SIGNED_IN: 'Nobody is signed in, or the session ended while the request was under way.',
  NO_PROJECT: 'Reserved, raised by nothing today (an account without projects sees an empty list); kept so errors stored by older versions still read.',
  INVALID_INPUT: 'PrintDesk refused the input itself: a channel payload failing its schema, or an action the local state forbids.',
  INVALID_RESPONSE: 'The service answered something that is not its documented envelope or shape.',
  FILE_UNREADABLE: 'A local file could not be read (missing, no permission, a folder).',
  FILE_INVALID: 'A local file is not what it should be: not a model or CSV, empty, too large, or changed while it was sent.',
  CANCELLED: 'The user, or a sign-out, stopped the work before it ended.',
  EDIT_CONFLICT: 'The draft changed since the form opened it (another workstation of a team, or another window): nothing was overwritten; details.current is the draft as it is now.',
} as const;

export type ErrorCode = keyof typeof ERROR_MEANINGS;

export const ERROR_CODES = Object.keys(ERROR_MEANINGS) as [ErrorCode, ...ErrorCode[]];

/**
 * The named groups, each defined here once. A code may be in several. Each group's line says what its
 * members have in common and who acts on it.
 */
export const ERROR_GROUPS = {
  /** Trying the same again may succeed: the client's own retries, and the Retry buttons (AppError.retryable). */
  retryable: ['OFFLINE', 'TIMEOUT', 'RATE_LIMITED', 'INTERNAL_ERROR'],
  /**
   * Passing: the outbox keeps the order queued and sends it again later, instead of failing it. CANCELLED:
   * this process stopped the request (Ctrl+C); the next run sends it again under its reference.
   */
  transient: ['OFFLINE', 'TIMEOUT', 'INTERNAL_ERROR', 'RATE_LIMITED', 'INVALID_RESPONSE', 'CANCELLED'],
  /** The service is out of reach: what was last seen may stand in, and the app says it is offline. */
  unreachable: ['OFFLINE', 'TIMEOUT'],
  /**
   * The request left and no answer came back (or a garbled one): the service may have acted on it. CANCELLED:
   * stopped here (Ctrl+C) while on its way.
   */
  mayHaveActed: ['OFFLINE', 'TIMEOUT', 'INTERNAL_ERROR', 'INVALID_RESPONSE', 'CANCELLED'],
  /** The session is over: uploads pause and orders wait until the user signs in again. */
  signedOut: ['AUTHENTICATION', 'NOT_SIGNED_IN'],
  /** Answers to a token refresh that mean the refresh token itself is no good (the spec does not say which). */
  sessionEnding: ['AUTHENTICATION', 'INCORRECT_PARAMETERS', 'NO_PERMISSION'],
  /** The service was reached and said no. */
  refused: ['INCORRECT_PARAMETERS', 'NO_PERMISSION'],
  /** An upload failed for its file's sake: exporting the file again is the advice. */
  badFile: ['FILE_INVALID', 'FILE_UNREADABLE', 'INCORRECT_PARAMETERS'],
} as const satisfies Record<string, readonly ErrorCode[]>;

export type ErrorGroup = keyof typeof ERROR_GROUPS;

/** Whether a code belongs to a named group. Takes any string, so an absent code (`''`) is in none. */
export function inGroup(group: ErrorGroup, code: string | null | undefined): boolean {
  return (ERROR_GROUPS[group] as readonly string[]).includes(code ?? '');
}
