import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HostError } from '../../electron/services/api/errors.ts';
import { createPrintdeskApi } from '../../electron/contract/bridge-api.ts';
import { channelNames, eventNames } from '../../electron/contract/channels.ts';
import { dispatch, type Handlers } from '../../electron/services/dispatch.ts';

const session = { status: 'signed-out', email: null, endedReason: null } as const;
const handlers = {
  'session:get': () => session,
  'session:signIn': () => {
    throw new HostError('AUTHENTICATION', 'Email or password is incorrect');
  },
  'projects:list': () => [{ projectId: 'p', name: 'n', createdAt: null, unexpected: true }],
  'session:signOut': () => ({ status: 'nonsense' }),
} as unknown as Handlers;

test('unknown channels do not exist', async () => {
  const result = await dispatch(handlers, 'shell:openExternal', { url: 'file:///etc/passwd' });
  assert.equal(result.ok, false);
  assert.equal(!result.ok && result.error.code, 'INVALID_INPUT');
  assert.equal((await dispatch(handlers, 'session:constructor', undefined)).ok, false);
  assert.equal((await dispatch(handlers, '__proto__:toString', undefined)).ok, false);
});

test('input is parsed against the contract before the handler runs', async () => {
  const result = await dispatch(handlers, 'session:signIn', { email: 'a@b.test' });
  assert.equal(!result.ok && result.error.code, 'INVALID_INPUT');
  assert.match(!result.ok ? result.error.message : '', /password/);
});

test('thrown errors come back as results with their code', async () => {
  const result = await dispatch(handlers, 'session:signIn', { email: 'a@b.test', password: 'x' });
  assert.deepEqual(result, { ok: false, error: { code: 'AUTHENTICATION', message: 'Email or password is incorrect', retryable: false } });
});

test('output is held to the contract too: extra fields dropped, wrong shapes refused', async () => {
  assert.deepEqual(await dispatch(handlers, 'projects:list', undefined), { ok: true, value: [{ projectId: 'p', name: 'n', createdAt: null }] });
  const broken = await dispatch(handlers, 'session:signOut', undefined);
  assert.equal(!broken.ok && broken.error.code, 'INTERNAL_ERROR');
});

test('the renderer API has one function per contract channel and nothing else', async () => {
  const calls: string[] = [];
  const api = createPrintdeskApi(
    { invoke: async (channel) => void calls.push(channel), subscribe: () => () => undefined, pathForFile: async () => '' },
    { channels: channelNames, events: eventNames },
  );
  const exposed = Object.entries(api).flatMap(([ns, methods]) => (typeof methods === 'function' ? [] : Object.keys(methods).map((m) => `${ns}:${m}`)));
  assert.deepEqual(Object.keys(api).filter((key) => typeof (api as unknown as Record<string, unknown>)[key] === 'function').sort(), ['on', 'pathForFile']);
  assert.deepEqual(exposed.sort(), [...channelNames].sort());
  await api.session.get();
  assert.deepEqual(calls, ['session:get']);
  assert.throws(() => api.on('nope' as never, () => undefined));
  assert.ok(Object.isFrozen(api) && Object.isFrozen(api.session));
});

test("the command line's batch channels take a file's bytes, and nothing else in their place", async () => {
  const projectId = '0b3f8c9e-2d4a-4c1b-9e7f-5a6b7c8d9e0f';
  let handed: unknown = null;
  const bytesHandlers = { 'batch:findByFile': ({ bytes }: { bytes: Uint8Array }) => ((handed = bytes), null) } as unknown as Handlers;
  const bytes = new TextEncoder().encode('a,b\n1,2\n');
  assert.deepEqual(await dispatch(bytesHandlers, 'batch:findByFile', { projectId, bytes }), { ok: true, value: null });
  assert.equal(handed, bytes, 'the bytes reach the handler as they were given');
  for (const wrong of ['a,b\n1,2\n', [97, 98], { 0: 97 }, null]) {
    const result = await dispatch(bytesHandlers, 'batch:findByFile', { projectId, bytes: wrong });
    assert.equal(!result.ok && result.error.code, 'INVALID_INPUT', JSON.stringify(wrong));
  }
  const kinds = await dispatch(bytesHandlers, 'batch:errors', { batchId: 'b', kinds: ['fatal'] });
  assert.equal(!kinds.ok && kinds.error.code, 'INVALID_INPUT');
});
