// What the service's answers about an order mean where the status says more than the error's code: the
// order reference already taken, and a look-up by reference the service does not offer. The orders
// module asks these rather than reading statuses itself.
import { HostError } from './errors.ts';

/** The service says an order already holds the reference. */
export function referenceTaken(error: HostError): boolean {
  if (error.status === 409) return true;
  return error.code === 'INCORRECT_PARAMETERS' && /reference/i.test(error.message) && /(exist|already|used|taken|duplicate)/i.test(error.message);
}

/**
 * The look-up by reference is not there to ask (not in the spec): the service answers as for any unknown
 * route or parameter. Not a 403, which the sandbox gives for an order that exists in a project no longer
 * this account's.
 */
export function lookUpUnavailable(error: unknown): boolean {
  return error instanceof HostError && [400, 404, 405, 501].includes(error.status ?? 0);
}
