import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ERROR_CODES, ERROR_GROUPS, ERROR_MEANINGS, inGroup, type ErrorGroup } from '../../common/errors.ts';
import { HostError, isNotFound, isUnreachable, mayHaveActed, toAppError } from '../../electron/services/api/errors.ts';
import { lookUpUnavailable, referenceTaken } from '../../electron/services/api/order-answers.ts';
import { readAppend, readWholeUpload, resumeUnsupported, uploadRetryable } from '../../electron/services/api/upload-answers.ts';
import { ErrorCode } from '../../electron/contract/schemas/errors.ts';

test('every code has its line, and the schema takes exactly the codes', () => {
  for (const code of ERROR_CODES) assert.ok(ERROR_MEANINGS[code].length > 20, code);
  assert.deepEqual(ErrorCode.options, ERROR_CODES);
  assert.equal(ErrorCode.safeParse('NOT_A_CODE').success, false);
});

test('the named groups hold the codes the host and the renderer act on', () => {
  const members = (group: ErrorGroup) => ERROR_CODES.filter((code) => inGroup(group, code));
  assert.deepEqual(members('retryable'), ['INTERNAL_ERROR', 'RATE_LIMITED', 'OFFLINE', 'TIMEOUT']);
  assert.deepEqual(members('transient'), ['INTERNAL_ERROR', 'RATE_LIMITED', 'OFFLINE', 'TIMEOUT', 'INVALID_RESPONSE', 'CANCELLED']);
  assert.deepEqual(members('unreachable'), ['OFFLINE', 'TIMEOUT']);
  assert.deepEqual(members('signedOut'), ['AUTHENTICATION', 'NOT_SIGNED_IN']);
  assert.deepEqual(members('sessionEnding'), ['AUTHENTICATION', 'NO_PERMISSION', 'INCORRECT_PARAMETERS']);
  // A rate limit never reached the service's logic: not a request it may have acted on.
  assert.equal(inGroup('mayHaveActed', 'RATE_LIMITED'), false);
  // An order's request stopped by Ctrl+C on its way may have reached the service.
  assert.equal(inGroup('mayHaveActed', 'CANCELLED'), true);
  assert.equal(inGroup('signedOut', undefined), false);
  assert.equal(inGroup('unreachable', ''), false);
});

test('an AppError says retryable for the retryable group only', () => {
  for (const code of ERROR_CODES) assert.equal(toAppError(new HostError(code, 'x')).retryable, inGroup('retryable', code), code);
  assert.equal(isUnreachable(new HostError('TIMEOUT', 'x')), true);
  assert.equal(isUnreachable(new HostError('RATE_LIMITED', 'x')), false);
});

test('whether the service may have acted: a refused connection did not reach it', () => {
  assert.equal(mayHaveActed(new HostError('OFFLINE', 'reset')), true);
  assert.equal(mayHaveActed(new HostError('OFFLINE', 'refused', { details: { ambiguous: false } })), false);
  assert.equal(mayHaveActed(new HostError('INVALID_RESPONSE', 'garbled')), true);
  assert.equal(mayHaveActed(new HostError('RATE_LIMITED', 'slow down')), false);
  assert.equal(mayHaveActed(new Error('ours')), true);
});

test('the api layer says what an order answer means', () => {
  assert.equal(referenceTaken(new HostError('INCORRECT_PARAMETERS', 'Conflict', { status: 409 })), true);
  assert.equal(referenceTaken(new HostError('INCORRECT_PARAMETERS', 'orderReference already exists', { status: 422 })), true);
  assert.equal(referenceTaken(new HostError('INCORRECT_PARAMETERS', 'country is not valid', { status: 400 })), false);
  assert.equal(lookUpUnavailable(new HostError('INCORRECT_PARAMETERS', 'Not found', { status: 404 })), true);
  assert.equal(lookUpUnavailable(new HostError('NO_PERMISSION', 'Not yours', { status: 403 })), false);
  assert.equal(isNotFound(new HostError('INCORRECT_PARAMETERS', 'gone', { status: 404 })), true);
  assert.equal(isNotFound(new HostError('INCORRECT_PARAMETERS', 'bad', { status: 400 })), false);
});

test('the api layer says what an upload answer means', () => {
  const answer = (status: number, headers: Record<string, string> = {}, body = '', retryAfterSeconds?: number) => ({ status, headers, body, retryAfterSeconds });
  assert.deepEqual(readAppend(answer(409, { 'upload-offset': '1024' }, '', 1)), { kind: 'offset-moved', offset: 1024, retryAfterSeconds: 1 });
  assert.deepEqual(readAppend(answer(409)), { kind: 'offset-unknown' });
  assert.deepEqual(readAppend(answer(404)), { kind: 'session-gone' });
  const session = { uploadId: 'u', offset: 10, sizeBytes: 20, state: 'open', complete: false, chunkSizeLimit: null, expiresAt: null };
  const appended = readAppend(answer(200, {}, JSON.stringify({ success: true, data: session })));
  assert.equal(appended.kind === 'appended' && appended.session.offset, 10);
  assert.throws(() => readWholeUpload(answer(405)), (e: HostError) => e.code === 'INTERNAL_ERROR' && /no upload endpoint/.test(e.message));
  assert.equal(resumeUnsupported(new HostError('INCORRECT_PARAMETERS', 'Not found', { status: 404 })), true);
  assert.equal(resumeUnsupported(new HostError('INCORRECT_PARAMETERS', 'Bad', { status: 400 })), false);
  assert.equal(uploadRetryable(new HostError('INCORRECT_PARAMETERS', 'Checksum mismatch', { status: 460 })), true);
  assert.equal(uploadRetryable(new HostError('INCORRECT_PARAMETERS', 'Too large', { status: 413 })), false);
  assert.equal(uploadRetryable(new HostError('TIMEOUT', 'slow')), true);
});

test('docs/errors.md lists every code and every group', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  for (const code of ERROR_CODES) assert.match(doc, new RegExp(`\\| \`${code}\` \\|`), code);
  for (const group of Object.keys(ERROR_GROUPS)) assert.match(doc, new RegExp(`\`${group}\``), group);
});
