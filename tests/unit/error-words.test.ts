// Each failure told for what it is: out of reach, the sandbox stopped, working offline, signed out, refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AppError } from '../../electron/contract/channels.ts';
import { errorWords } from '../../renderer/lib/error-words.ts';

const error = (code: AppError['code'], details?: Record<string, unknown>): AppError => ({ code, message: 'm', retryable: false, ...(details ? { details } : {}) });

test('an unreachable service is told apart from a stopped sandbox and from working offline', () => {
  assert.equal(errorWords(error('OFFLINE', { reason: 'unreachable' })).title, 'The service cannot be reached');
  assert.equal(errorWords(error('OFFLINE')).title, 'The service cannot be reached');
  assert.equal(errorWords(error('TIMEOUT', { reason: 'unreachable' })).title, 'The service is not answering');
  const stopped = errorWords(error('OFFLINE', { reason: 'sandbox-stopped' }));
  assert.equal(stopped.title, 'The embedded sandbox stopped');
  assert.match(stopped.advice ?? '', /Restart PrintDesk/);
  const offline = errorWords(error('OFFLINE', { reason: 'working-offline' }));
  assert.equal(offline.title, 'You are working offline');
  assert.equal(offline.action, 'work-online');
  // The page's link to the host gone: PrintDesk itself stopped, whatever the service does.
  assert.equal(errorWords(error('OFFLINE', { hostStopped: true, reason: 'unreachable' })).title, 'PrintDesk has stopped');
});

test('signed out and refused are said as such; PrintDesk\'s own faults are not blamed on the service', () => {
  assert.equal(errorWords(error('AUTHENTICATION')).title, 'You were signed out');
  assert.equal(errorWords(error('NOT_SIGNED_IN')).title, 'You were signed out');
  assert.equal(errorWords(error('INCORRECT_PARAMETERS')).title, 'The service refused this');
  assert.equal(errorWords(error('NO_PERMISSION')).title, 'The service refused: no access');
  assert.equal(errorWords(error('INTERNAL_ERROR')).title, 'Something went wrong on the service');
  assert.equal(errorWords(error('INTERNAL_ERROR', { inApp: true })).title, 'Something went wrong in PrintDesk');
  assert.equal(errorWords(error('INVALID_INPUT')).title, undefined);
});
