// Fault injection, in-process and through the loopback admin endpoint: every kind, scoping by
// path, counts, and seeded probabilities that repeat from run to run.
import assert from 'node:assert/strict';
import { afterEach, after, before, describe, it } from 'node:test';
import { call, login, startTestSandbox } from '../../sandbox/testing.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';

let sandbox: TestSandbox;
let url: string;
let token: string;
before(async () => {
  sandbox = await startTestSandbox();
  url = sandbox.baseUrl;
  token = (await login(url, sandbox.demoAccount)).accessToken;
});
afterEach(() => sandbox.faults.clear());
after(() => sandbox.dispose());

const projects = () => call(url, 'GET', '/Project/GetProjects', { token });

/** Status of a request, or the network error's cause code when the socket was dropped. */
async function outcome(path = '/Project/GetProjects', init: RequestInit = {}): Promise<number | string> {
  try {
    const response = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${token}` }, ...init });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    return ((error as Error).cause as { code?: string })?.code ?? 'network-error';
  }
}

describe('fault kinds', () => {
  it('latency delays the answer', async () => {
    sandbox.faults.set({ kind: 'latency', ms: 300, count: 1 });
    const started = Date.now();
    assert.equal((await projects()).status, 200);
    assert.ok(Date.now() - started >= 290);
    const quick = Date.now();
    await projects();
    assert.ok(Date.now() - quick < 250, 'count 1 means only the first request is delayed');
  });

  it('stall holds the answer past a client timeout', async () => {
    sandbox.faults.set({ kind: 'stall', ms: 2000, count: 1 });
    const result = await outcome('/Project/GetProjects', { signal: AbortSignal.timeout(300) }).catch((e: Error) => e.name);
    assert.notEqual(result, 200);
  });

  it('reset-before drops the connection without acting', async () => {
    sandbox.faults.set({ kind: 'reset-before', path: '/Auth/Login', count: 1 });
    const result = await outcome('/Auth/Login', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(sandbox.demoAccount),
    });
    assert.equal(typeof result, 'string');
  });

  it('reset-after acts, then drops the answer', async () => {
    const { refreshToken } = await login(url, sandbox.demoAccount);
    sandbox.faults.set({ kind: 'reset-after', path: '/Auth/RefreshToken', count: 1 });
    const body = JSON.stringify({ refreshToken });
    const init = { method: 'POST', headers: { 'Content-Type': 'application/json' }, body };
    assert.equal(typeof (await outcome('/Auth/RefreshToken', init)), 'string');
    // the server did act: the refresh token was rotated, so using it again fails
    assert.equal(await outcome('/Auth/RefreshToken', init), 401);
  });

  it('status-5xx answers a burst of 503s with the envelope', async () => {
    sandbox.faults.set({ kind: 'status-5xx', count: 2 });
    const first = await projects();
    assert.equal(first.status, 503);
    assert.equal(first.body.success, false);
    assert.equal(first.body.error?.type, 'INTERNAL_ERROR');
    assert.equal((await projects()).status, 503);
    assert.equal((await projects()).status, 200);
  });

  it('status-5xx with another status', async () => {
    sandbox.faults.set({ kind: 'status-5xx', status: 502, count: 1 });
    assert.equal((await projects()).status, 502);
  });

  it('rate-limit answers a 429 storm with the given Retry-After', async () => {
    sandbox.faults.set({ kind: 'rate-limit', retryAfterSeconds: 7, count: 3 });
    for (let i = 0; i < 3; i++) {
      const response = await projects();
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('retry-after'), '7');
      assert.equal(response.body.error?.type, 'RATE_LIMITED');
    }
    assert.equal((await projects()).status, 200);
  });
});

describe('scope and repeatability', () => {
  it('only hits requests whose path matches', async () => {
    sandbox.faults.set({ kind: 'status-5xx', path: '/project/hasaccestoproject' });
    assert.equal((await projects()).status, 200);
    assert.equal((await call(url, 'GET', `/Project/HasAccesToProject?projectId=${crypto.randomUUID()}`, { token })).status, 503);
  });

  it('only hits the given method', async () => {
    sandbox.faults.set({ kind: 'status-5xx', method: 'POST' });
    assert.equal((await projects()).status, 200);
  });

  it('draws the same requests for the same seed', async () => {
    const run = async () => {
      sandbox.faults.set({ kind: 'status-5xx', probability: 0.5, seed: 42 });
      const statuses = [];
      for (let i = 0; i < 20; i++) statuses.push((await projects()).status);
      return statuses;
    };
    const first = await run();
    assert.deepEqual(await run(), first);
    assert.ok(first.includes(200) && first.includes(503), `a mix is expected: ${first.join(',')}`);
  });

  it('clear removes every fault', async () => {
    sandbox.faults.set([{ kind: 'status-5xx' }, { kind: 'latency', ms: 1000 }]);
    assert.equal(sandbox.faults.list().length, 2);
    sandbox.faults.clear();
    assert.equal((await projects()).status, 200);
  });

  it('rejects an invalid fault', () => {
    assert.throws(() => sandbox.faults.set({ kind: 'explode' } as never));
    assert.throws(() => sandbox.faults.set({ kind: 'latency', probability: 2 }));
  });
});

describe('admin endpoint', () => {
  const admin = (method: string, body?: unknown, secret = sandbox.adminSecret) =>
    call(url.replace('/v2', ''), method, '/__admin/faults', { json: body, headers: { 'X-Admin-Secret': secret } });

  it('sets, lists and clears faults', async () => {
    const set = await admin('POST', [{ kind: 'status-5xx', path: '/Project/', count: 1 }]);
    assert.equal(set.status, 200);
    assert.equal((await admin('GET')).body.success, true);
    assert.equal((await projects()).status, 503);
    await admin('POST', { faults: [{ kind: 'rate-limit', retryAfterSeconds: 3 }] });
    assert.equal((await projects()).status, 429);
    assert.equal((await admin('DELETE')).status, 200);
    assert.equal((await projects()).status, 200);
  });

  it('refuses a missing or wrong secret', async () => {
    assert.equal((await admin('GET', undefined, 'wrong')).status, 401);
    assert.equal((await call(url.replace('/v2', ''), 'GET', '/__admin/faults')).status, 401);
  });

  it('answers an invalid fault with 400', async () => {
    const response = await admin('POST', { kind: 'latency', ms: -1 });
    assert.equal(response.status, 400);
    assert.equal(response.body.error?.type, 'INCORRECT_PARAMETERS');
  });

  it('is not subject to faults itself', async () => {
    sandbox.faults.set({ kind: 'reset-before' });
    assert.equal((await admin('DELETE')).status, 200);
    assert.equal((await projects()).status, 200);
  });
});
