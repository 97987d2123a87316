import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { decodeEnvelope } from '../../electron/services/api/envelope.ts';
import { HostError, toAppError } from '../../electron/services/api/errors.ts';
import { ProjectAccess, ProjectList, TokenPair } from '../../electron/services/api/schemas.ts';

const endpoint = 'POST /Auth/Login';
const decode = <S extends z.ZodType>(status: number, body: unknown, schema: S, retryAfterSeconds?: number) =>
  decodeEnvelope(endpoint, { status, body: typeof body === 'string' ? body : JSON.stringify(body), retryAfterSeconds }, schema);

function failure(fn: () => unknown): HostError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof HostError, `expected a HostError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a failure');
}

test('a success envelope yields its data, tolerating fields the client does not know', () => {
  const data = decode(200, { success: true, data: { accessToken: 'a', refreshToken: 'r', scope: 'x' }, extra: 1 }, TokenPair);
  assert.deepEqual(data, { accessToken: 'a', refreshToken: 'r' });
});

test('a missing field is named with the endpoint', () => {
  const error = failure(() => decode(200, { success: true, data: { accessToken: 'a' } }, TokenPair));
  assert.equal(error.code, 'INVALID_RESPONSE');
  assert.match(error.message, /POST \/Auth\/Login/);
  assert.match(error.message, /data\.refreshToken/);
});

test('the service error type and message are kept', () => {
  const error = failure(() => decode(400, { success: false, error: { type: 'AUTHENTICATION', message: 'The username or password is incorrect' } }, TokenPair));
  assert.equal(error.code, 'AUTHENTICATION');
  assert.equal(error.message, 'The username or password is incorrect');
  assert.equal(error.status, 400);
});

test('success:false is a failure even with status 200, and success must be checked', () => {
  assert.equal(failure(() => decode(200, { success: false, error: { type: 'NO_PERMISSION', message: 'no' } }, z.unknown())).code, 'NO_PERMISSION');
  assert.equal(failure(() => decode(200, { data: {} }, z.unknown())).code, 'INVALID_RESPONSE');
  assert.equal(failure(() => decode(200, '<html>proxy</html>', z.unknown())).code, 'INVALID_RESPONSE');
});

test('429 is RATE_LIMITED with the Retry-After, whatever the body', () => {
  const error = failure(() => decode(429, 'Too Many Requests', z.unknown(), 12));
  assert.equal(error.code, 'RATE_LIMITED');
  assert.equal(error.retryAfterSeconds, 12);
  assert.equal(error.retryable, true);
});

test('unknown error types fall back on the HTTP status; a 5xx without envelope is INTERNAL_ERROR', () => {
  assert.equal(failure(() => decode(401, { success: false, error: { type: 'TOKEN_EXPIRED', message: 'x' } }, z.unknown())).code, 'AUTHENTICATION');
  assert.equal(failure(() => decode(403, { success: false, error: {} }, z.unknown())).code, 'NO_PERMISSION');
  assert.equal(failure(() => decode(502, 'Bad gateway', z.unknown())).code, 'INTERNAL_ERROR');
});

test('project list and access accept the shapes a real service might choose', () => {
  const project = { projectId: '0f8fad5b-d9cb-469f-a165-70867728950e', name: 'P', createdAt: '2026-01-01T00:00:00Z' };
  assert.deepEqual(ProjectList.parse({ projects: [project] }), [project]);
  assert.deepEqual(ProjectList.parse([{ id: project.projectId, projectName: 'P' }]), [{ projectId: project.projectId, name: 'P', createdAt: null }]);
  assert.equal(ProjectList.safeParse([{ name: 'no id' }]).success, false);
  assert.equal(ProjectAccess.parse(true), true);
  assert.equal(ProjectAccess.parse({ hasAccess: false, projectId: 'x' }), false);
  assert.equal(ProjectAccess.parse({ access: true }), true);
});

test('a fault of the app itself is told apart from an error the service answered', () => {
  const own = toAppError(new TypeError('x is undefined'));
  assert.equal(own.code, 'INTERNAL_ERROR');
  assert.equal(own.details?.inApp, true);
  const services = toAppError(failure(() => decode(500, { type: 'INTERNAL_ERROR', message: 'Database down' }, ProjectList)));
  assert.equal(services.code, 'INTERNAL_ERROR');
  assert.notEqual(services.details?.inApp, true);
});
