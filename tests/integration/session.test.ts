// The service client and session against a real sandbox over HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createApiClient, type ApiClient } from '../../electron/services/api/client.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { createSession, type Session } from '../../electron/services/session/session.ts';
import { createMemoryVault } from '../../electron/services/session/token-vault.ts';
import type { SessionState } from '../../electron/contract/channels.ts';
import { rejection } from '../host-error.ts';

let sandbox: TestSandbox;
before(async () => {
  sandbox = await startTestSandbox({ accessTokenTtlSeconds: 60, refreshTokenTtlSeconds: 600 });
});
after(() => sandbox.dispose());

interface Setup {
  session: Session;
  client: ApiClient;
  changes: SessionState[];
  vault: ReturnType<typeof createMemoryVault>;
  clock: { now: number };
}

function setup(baseUrl = sandbox.baseUrl, vault = createMemoryVault('test')): Setup {
  const changes: SessionState[] = [];
  const clock = { now: Date.now() };
  // The session asks for its client lazily, so the two can refer to each other.
  const session = createSession({ vault, client: () => client, now: () => clock.now, onChange: (s) => changes.push(s) });
  const client: ApiClient = createApiClient({ baseUrl, tokens: session.tokens, timeoutMs: 3_000, sleep: async () => undefined });
  return { session, client, changes, vault, clock };
}


test('sign in, list the projects, check access; the password is not kept', async () => {
  const { session, client, vault } = setup();
  await session.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  assert.equal(session.state().status, 'signed-in');
  const projects = await client.getProjects();
  assert.equal(projects.length, 1);
  assert.equal(projects[0].name, 'Demo project');
  assert.equal(await client.hasAccessToProject(projects[0].projectId), true);
  assert.equal(await client.hasAccessToProject('00000000-0000-4000-8000-000000000000'), false);
  const saved = JSON.stringify(await vault.load());
  assert.ok(!saved.includes(sandbox.demoAccount.password));
});

test('wrong credentials are AUTHENTICATION with the form message', async () => {
  const { session } = setup();
  const error = await rejection(session.signIn(DEMO_EMAIL, 'wrong'));
  assert.equal(error.code, 'AUTHENTICATION');
  assert.equal(error.message, 'Email or password is incorrect');
  assert.equal(session.state().status, 'signed-out');
});

test('a 401 triggers one single-flight refresh shared by concurrent calls, then each retries once', async () => {
  // Two seconds, not one: expiry is counted in whole seconds from a whole-second iat, so a token of 1 s
  // issued at x.999 s is dead 1 ms later, and the renewed token could die before its retry arrives.
  const shortLived = await startTestSandbox({ accessTokenTtlSeconds: 2 });
  try {
    const { session, client, clock } = setup(shortLived.baseUrl);
    await session.signIn(DEMO_EMAIL, shortLived.demoAccount.password);
    // The client's clock lags an hour (a laptop back from sleep): it trusts a token the service
    // has already expired, so only the service's 401 can tell it.
    clock.now = Date.now() - 3_600_000;
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    let refreshes = 0;
    const realRefresh = client.refresh;
    client.refresh = async (token) => {
      refreshes++;
      return realRefresh(token);
    };
    const results = await Promise.all([client.getProjects(), client.getProjects(), client.getProjects()]);
    assert.equal(refreshes, 1);
    for (const projects of results) assert.equal(projects.length, 1);
    assert.equal(session.state().status, 'signed-in');
  } finally {
    await shortLived.dispose();
  }
});

test('a refresh token that is no longer valid signs out, says why and clears the vault', async () => {
  const shortLived = await startTestSandbox({ accessTokenTtlSeconds: 1 });
  try {
    const { session, client, changes, vault } = setup(shortLived.baseUrl);
    await session.signIn(DEMO_EMAIL, shortLived.demoAccount.password);
    const stored = await vault.load();
    assert.ok(stored);
    // Use the refresh token elsewhere: the service rotates it, so ours is now revoked.
    await createApiClient({ baseUrl: shortLived.baseUrl }).refresh(stored.refreshToken);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const error = await rejection(client.getProjects());
    assert.equal(error.code, 'AUTHENTICATION');
    assert.equal(session.state().status, 'signed-out');
    assert.match(session.state().endedReason ?? '', /expired/);
    assert.equal(session.state().email, DEMO_EMAIL, 'the ended account is offered to sign in again');
    assert.equal(changes.at(-1)?.status, 'signed-out');
    assert.equal(await vault.load(), null);
  } finally {
    await shortLived.dispose();
  }
});

test('a saved session is restored after a restart without the password', async () => {
  const vault = createMemoryVault('test');
  const first = setup(sandbox.baseUrl, vault);
  await first.session.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  const second = setup(sandbox.baseUrl, vault);
  assert.equal((await second.session.restore()).status, 'signed-in');
  assert.equal((await second.client.getProjects()).length, 1);
});

test('a refresh carries the last access token in its header, also the first one after a restart', async (t) => {
  const seen: Array<string | undefined> = [];
  let issued = 0;
  const server = createServer((request, response) => {
    request.resume().on('end', () => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const reply = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const pair = () => ({ success: true, data: { accessToken: `access-${++issued}`, refreshToken: `refresh-${issued}` } });
      if (path.endsWith('/Auth/Login')) return reply(200, pair());
      if (path.endsWith('/Auth/RefreshToken')) return (seen.push(request.headers.authorization), reply(200, pair()));
      // Every other call refuses the token it is given once, so the session has to refresh.
      const fresh = request.headers.authorization === `Bearer access-${issued}` && issued % 2 === 0;
      return fresh ? reply(200, { success: true, data: [] }) : reply(401, { success: false, error: { type: 'AUTHENTICATION', message: 'expired' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  const vault = createMemoryVault('test');
  const first = setup(baseUrl, vault);
  await first.session.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  await first.client.getProjects();
  assert.deepEqual(seen, ['Bearer access-1']);
  // A restart: the session comes back from the vault, and its first refresh still has a token to show.
  const second = setup(baseUrl, vault);
  await second.session.restore();
  await second.client.getProjects();
  assert.equal(seen[1], 'Bearer access-2');
});

test('a local clock hours ahead does not make every call refresh: a token lives from its arrival', async () => {
  const { session, client, clock, vault } = setup();
  clock.now += 2 * 3600_000;
  let saves = 0;
  const save = vault.save.bind(vault);
  vault.save = async (stored) => (saves++, save(stored));
  await session.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  for (let i = 0; i < 5; i++) await client.getProjects();
  assert.equal(saves, 1, 'signed in once, refreshed never');
  // Its life (60 s here) counted from its arrival: past it, the next call renews it first.
  clock.now += 61_000;
  await client.getProjects();
  assert.equal(saves, 2);
});

test('an unreachable service is OFFLINE at once, and the session is kept', async () => {
  const { session } = setup();
  await session.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  const offline = createApiClient({ baseUrl: 'http://127.0.0.1:9/v2', tokens: session.tokens, sleep: async () => undefined });
  const started = Date.now();
  const error = await rejection(offline.getProjects());
  assert.equal(error.code, 'OFFLINE');
  // Said in words; the system's code is kept for whoever looks closer.
  assert.equal(error.message, 'Cannot reach the service at 127.0.0.1:9: nothing is answering at that address');
  assert.equal(error.details?.systemCode, 'ECONNREFUSED');
  assert.ok(Date.now() - started < 2_000, 'a refused connection is not retried with backoff');
  assert.equal(session.state().status, 'signed-in');
});

test('429 on a read is retried after Retry-After; on sign-in it is reported with the wait', async () => {
  const { session, client } = setup();
  await session.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  sandbox.faults.set({ kind: 'rate-limit', path: '/Project/GetProjects', count: 2, retryAfterSeconds: 1 });
  assert.equal((await client.getProjects()).length, 1);
  sandbox.faults.set({ kind: 'rate-limit', path: '/Auth/Login', count: 1, retryAfterSeconds: 42 });
  const error = await rejection(setup().session.signIn(DEMO_EMAIL, sandbox.demoAccount.password));
  assert.equal(error.code, 'RATE_LIMITED');
  assert.equal(error.retryAfterSeconds, 42);
  sandbox.faults.clear();
});

test('a reset connection and a 5xx on a read are retried; a stall past the timeout is TIMEOUT', async () => {
  const { session, client } = setup();
  await session.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  sandbox.faults.set([
    { kind: 'reset-before', path: '/Project/GetProjects', count: 1 },
    { kind: 'status-5xx', path: '/Project/GetProjects', count: 1, status: 503 },
  ]);
  assert.equal((await client.getProjects()).length, 1);
  sandbox.faults.set({ kind: 'stall', path: '/Project/HasAccesToProject', ms: 2_000 });
  const slow = createApiClient({ baseUrl: sandbox.baseUrl, tokens: session.tokens, timeoutMs: 300, maxRetries: 0 });
  const error = await rejection(slow.hasAccessToProject('00000000-0000-4000-8000-000000000000'));
  assert.equal(error.code, 'TIMEOUT');
  sandbox.faults.clear();
});

test('the rate-limit headers are recorded per endpoint', async () => {
  const { session, client } = setup();
  await session.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  await client.getProjects();
  const info = client.rateLimit('getProjects');
  assert.ok(info?.limit && info.limit > 0);
  assert.ok(info?.remaining !== undefined && info.remaining < info.limit);
});
