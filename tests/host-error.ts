import assert from 'node:assert/strict';
import { HostError } from '../electron/services/api/errors.ts';

/** Awaits a promise that must fail with a HostError, and returns it for the test to inspect. */
export async function rejection(promise: Promise<unknown>): Promise<HostError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof HostError, String(error));
    return error;
  }
  assert.fail('expected a rejection');
}
