// Walks the spec's tables for the endpoints the sandbox serves: envelope, status codes, error
// types and messages, token lifetimes and rotation, projects. Real HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_EMAIL, NO_PROJECT_EMAIL } from '../../sandbox/seed.ts';
import { call, login, startTestSandbox } from '../../sandbox/testing.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';

const ISO_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Pair { accessToken: string; refreshToken: string }
interface Project { projectId: string; name: string; createdAt: string }

let sandbox: TestSandbox;
let url: string;
before(async () => {
  sandbox = await startTestSandbox();
  url = sandbox.baseUrl;
});
after(() => sandbox.dispose());

function assertFailure(response: { status: number; headers: Headers; body: unknown }, status: number, type: string, message?: string | RegExp) {
  assert.equal(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = response.body as { success: boolean; error: { type: string; message: string } };
  assert.equal(body.success, false);
  assert.equal(body.error.type, type);
  assert.equal(typeof body.error.message, 'string');
  if (typeof message === 'string') assert.equal(body.error.message, message);
  else if (message) assert.match(body.error.message, message);
}

describe('envelope', () => {
  it('answers unknown paths with a 404 envelope', async () => {
    assertFailure(await call(url, 'GET', '/Nope/Nothing'), 404, 'NOT_FOUND');
    assertFailure(await call(url.replace('/v2', ''), 'GET', '/'), 404, 'NOT_FOUND');
    assertFailure(await call(url.replace('/v2', '/v1'), 'POST', '/Auth/Login', { json: sandbox.demoAccount }), 404, 'NOT_FOUND');
  });

  it('matches paths exactly, including the spelling HasAccesToProject', async () => {
    const { accessToken } = await login(url, sandbox.demoAccount);
    assertFailure(await call(url, 'GET', '/Project/HasAccessToProject?projectId=x', { token: accessToken }), 404, 'NOT_FOUND');
    assertFailure(await call(url, 'GET', '/project/getprojects', { token: accessToken }), 404, 'NOT_FOUND');
  });

  it('answers a wrong method with a 405 envelope and Allow', async () => {
    const response = await call(url, 'GET', '/Auth/Login');
    assertFailure(response, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(response.headers.get('allow'), 'POST');
    assertFailure(await call(url, 'DELETE', '/Project/GetProjects'), 405, 'METHOD_NOT_ALLOWED');
  });
});

describe('POST /Auth/Login', () => {
  it('returns a token pair of signed JWTs', async () => {
    const response = await call<Pair>(url, 'POST', '/Auth/Login', { json: sandbox.demoAccount });
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    const { accessToken, refreshToken } = response.body.data!;
    const access = claims(accessToken);
    const refresh = claims(refreshToken);
    assert.equal(access.typ, 'access');
    assert.equal(refresh.typ, 'refresh');
    assert.equal(access.email, DEMO_EMAIL);
    assert.match(String(access.sub), GUID);
    assert.equal(Number(access.exp) - Number(access.iat), 3600);
    assert.equal(Number(refresh.exp) - Number(refresh.iat), 43200);
    assert.notEqual(access.jti, refresh.jti);
  });

  it('accepts the e-mail in any case', async () => {
    const response = await call(url, 'POST', '/Auth/Login', { json: { ...sandbox.demoAccount, email: 'DEMO@PrintDesk.test' } });
    assert.equal(response.status, 200);
  });

  for (const [label, credentials] of [
    ['wrong password', () => ({ email: DEMO_EMAIL, password: 'nope-nope' })],
    ['unknown e-mail', () => ({ email: 'nobody@printdesk.test', password: sandbox.demoAccount.password })],
  ] as const) {
    it(`answers ${label} with 400 AUTHENTICATION`, async () => {
      assertFailure(await call(url, 'POST', '/Auth/Login', { json: credentials() }), 400, 'AUTHENTICATION', 'The username or password is incorrect');
    });
  }

  it('answers missing fields with 400 INCORRECT_PARAMETERS', async () => {
    assertFailure(await call(url, 'POST', '/Auth/Login', { json: { password: 'x' } }), 400, 'INCORRECT_PARAMETERS', 'Email is not set');
    assertFailure(await call(url, 'POST', '/Auth/Login', { json: { email: 'a@b.c' } }), 400, 'INCORRECT_PARAMETERS', 'Password is not set');
    assertFailure(await call(url, 'POST', '/Auth/Login', { json: { email: 5, password: 'x' } }), 400, 'INCORRECT_PARAMETERS', 'Email must be a string');
    assertFailure(await call(url, 'POST', '/Auth/Login', { json: [1, 2] }), 400, 'INCORRECT_PARAMETERS');
    assertFailure(await call(url, 'POST', '/Auth/Login'), 400, 'INCORRECT_PARAMETERS', 'Request body is empty');
  });
});

describe('401 AUTHENTICATION on protected endpoints', () => {
  const cases: [string, () => Promise<Record<string, string>>, RegExp][] = [
    ['no header', async () => ({}), /missing/],
    ['not a bearer header', async () => ({ Authorization: 'Basic abc' }), /Bearer/],
    ['a malformed token', async () => ({ Authorization: 'Bearer not.a.jwt' }), /malformed|invalid/],
    ['a token signed with another key', async () => ({ Authorization: `Bearer ${forgeSignature((await login(url, sandbox.demoAccount)).accessToken)}` }), /signature/],
    ['an expired token', async () => ({ Authorization: `Bearer ${await signed({ typ: 'access', exp: now() - 10 })}` }), /^Access token has expired$/],
    ['a refresh token used as access token', async () => ({ Authorization: `Bearer ${(await login(url, sandbox.demoAccount)).refreshToken}` }), /not an access token/],
    ['a token of a user that does not exist', async () => ({ Authorization: `Bearer ${await signed({ typ: 'access', sub: crypto.randomUUID() })}` }), /no longer exists/],
  ];
  for (const [label, headers, message] of cases) {
    it(`with ${label}`, async () => {
      assertFailure(await call(url, 'GET', '/Project/GetProjects', { headers: await headers() }), 401, 'AUTHENTICATION', message);
    });
  }

  it('once a short-lived access token runs out', async () => {
    // Two seconds, not one: claims count whole seconds, so a one-second token issued late in a second could
    // be spent before the first call (seen under load).
    const short = await startTestSandbox({ accessTokenTtlSeconds: 2 });
    try {
      const { accessToken } = await login(short.baseUrl, short.demoAccount);
      assert.equal((await call(short.baseUrl, 'GET', '/Project/GetProjects', { token: accessToken })).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 3100));
      assertFailure(await call(short.baseUrl, 'GET', '/Project/GetProjects', { token: accessToken }), 401, 'AUTHENTICATION', 'Access token has expired');
    } finally {
      await short.dispose();
    }
  });
});

describe('POST /Auth/RefreshToken', () => {
  const INVALID = 'Refresh token is invalid or expired';

  it('rotates: returns a new pair and revokes the refresh token used', async () => {
    const first = await login(url, sandbox.demoAccount);
    const second = await call<Pair>(url, 'POST', '/Auth/RefreshToken', { json: { refreshToken: first.refreshToken } });
    assert.equal(second.status, 200);
    assert.notEqual(second.body.data!.refreshToken, first.refreshToken);
    assert.equal((await call(url, 'GET', '/Project/GetProjects', { token: second.body.data!.accessToken })).status, 200);
    assertFailure(await call(url, 'POST', '/Auth/RefreshToken', { json: { refreshToken: first.refreshToken } }), 401, 'AUTHENTICATION', INVALID);
    const third = await call<Pair>(url, 'POST', '/Auth/RefreshToken', { json: { refreshToken: second.body.data!.refreshToken } });
    assert.equal(third.status, 200);
  });

  it('lets only one of two concurrent uses of the same token win', async () => {
    const { refreshToken } = await login(url, sandbox.demoAccount);
    const results = await Promise.all([1, 2].map(() => call(url, 'POST', '/Auth/RefreshToken', { json: { refreshToken } })));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 401]);
  });

  it('rejects an expired refresh token', async () => {
    const short = await startTestSandbox({ refreshTokenTtlSeconds: 1 });
    try {
      const { refreshToken } = await login(short.baseUrl, short.demoAccount);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      assertFailure(await call(short.baseUrl, 'POST', '/Auth/RefreshToken', { json: { refreshToken } }), 401, 'AUTHENTICATION', INVALID);
    } finally {
      await short.dispose();
    }
  });

  it('rejects a refresh token whose signature is valid but exp has passed', async () => {
    assertFailure(await call(url, 'POST', '/Auth/RefreshToken', { json: { refreshToken: await signed({ typ: 'refresh', exp: now() - 1 }) } }), 401, 'AUTHENTICATION', INVALID);
  });

  it('rejects malformed, unknown and access tokens', async () => {
    const { accessToken } = await login(url, sandbox.demoAccount);
    const unknown = await signed({ typ: 'refresh', jti: crypto.randomUUID() });
    for (const refreshToken of ['garbage', accessToken, unknown, forgeSignature(accessToken)]) {
      assertFailure(await call(url, 'POST', '/Auth/RefreshToken', { json: { refreshToken } }), 401, 'AUTHENTICATION', INVALID);
    }
  });

  it('answers a missing refreshToken with 400 INCORRECT_PARAMETERS', async () => {
    assertFailure(await call(url, 'POST', '/Auth/RefreshToken', { json: {} }), 400, 'INCORRECT_PARAMETERS', 'Refresh token is not set');
  });
});

describe('projects', () => {
  it('GetProjects lists the demo project for the demo account', async () => {
    const { accessToken } = await login(url, sandbox.demoAccount);
    const response = await call<{ projects: Project[] }>(url, 'GET', '/Project/GetProjects', { token: accessToken });
    assert.equal(response.status, 200);
    const { projects } = response.body.data!;
    assert.equal(projects.length, 1);
    assert.equal(projects[0].name, 'Demo project');
    assert.match(projects[0].projectId, GUID);
    assert.match(projects[0].createdAt, ISO_SECONDS);
  });

  it('GetProjects is empty for the no-project account', async () => {
    const { accessToken } = await login(url, sandbox.noProjectAccount);
    const response = await call<{ projects: Project[] }>(url, 'GET', '/Project/GetProjects', { token: accessToken });
    assert.deepEqual(response.body, { success: true, data: { projects: [] } });
  });

  it('HasAccesToProject answers true for an assigned project and false otherwise', async () => {
    const demo = await login(url, sandbox.demoAccount);
    const other = await login(url, sandbox.noProjectAccount);
    const [project] = (await call<{ projects: Project[] }>(url, 'GET', '/Project/GetProjects', { token: demo.accessToken })).body.data!.projects;
    const ask = (token: string, id: string) => call<{ projectId: string; hasAccess: boolean }>(url, 'GET', `/Project/HasAccesToProject?projectId=${id}`, { token });
    assert.deepEqual((await ask(demo.accessToken, project.projectId)).body, { success: true, data: { projectId: project.projectId, hasAccess: true } });
    assert.deepEqual((await ask(demo.accessToken, project.projectId.toUpperCase())).body.data, { projectId: project.projectId, hasAccess: true });
    assert.equal((await ask(other.accessToken, project.projectId)).body.data!.hasAccess, false);
    const unknown = crypto.randomUUID();
    assert.deepEqual((await ask(demo.accessToken, unknown)).body.data, { projectId: unknown, hasAccess: false });
  });

  it('HasAccesToProject answers a missing or non-GUID projectId with 400', async () => {
    const { accessToken } = await login(url, sandbox.demoAccount);
    for (const query of ['', '?projectId=', '?projectId=123', '?projectId=zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', `?projectId=${encodeURIComponent("' OR 1=1 --")}`]) {
      assertFailure(await call(url, 'GET', `/Project/HasAccesToProject${query}`, { token: accessToken }), 400, 'INCORRECT_PARAMETERS');
    }
  });

  it('reflects operator assignment at once', async () => {
    const project = await sandbox.operator.createProject('Assigned later');
    const { accessToken } = await login(url, sandbox.noProjectAccount);
    const list = () => call<{ projects: Project[] }>(url, 'GET', '/Project/GetProjects', { token: accessToken });
    assert.equal((await list()).body.data!.projects.length, 0);
    await sandbox.operator.assign(project.projectId, NO_PROJECT_EMAIL);
    assert.deepEqual((await list()).body.data!.projects.map((p) => p.name), ['Assigned later']);
    await sandbox.operator.unassign(project.projectId, NO_PROJECT_EMAIL);
    assert.equal((await list()).body.data!.projects.length, 0);
  });
});

function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

async function signed(overrides: Record<string, unknown>): Promise<string> {
  const users = await sandbox.operator.listUsers();
  const demo = users.find((u) => u.email === DEMO_EMAIL)!;
  return sandbox.tokens.sign({ sub: demo.userId, email: demo.email, jti: crypto.randomUUID(), iat: now() - 20, exp: now() + 60, ...overrides });
}

function forgeSignature(token: string): string {
  const [header, payload] = token.split('.');
  return `${header}.${payload}.${Buffer.alloc(32, 7).toString('base64url')}`;
}
