// Rate limits (X-RateLimit-* on every /v2 response, 429 + Retry-After) and hostile input
// (malformed JSON, wrong content type, huge bodies, unicode): always an envelope, never a 500.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { call, login, startTestSandbox } from '../../sandbox/testing.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';

let sandbox: TestSandbox;
let url: string;

describe('rate limits', () => {
  before(async () => {
    sandbox = await startTestSandbox({
      rateLimits: { 'Project/GetProjects': { limit: 3, windowSeconds: 2 }, 'Auth/Login': { limit: 4, windowSeconds: 60 } },
    });
    url = sandbox.baseUrl;
  });
  after(() => sandbox.dispose());

  it('sends X-RateLimit-* on every /v2 response, errors included', async () => {
    for (const response of [
      await call(url, 'GET', '/Nope'),
      await call(url, 'GET', '/Project/HasAccesToProject?projectId=1'),
      await call(url, 'POST', '/Auth/RefreshToken', { json: {} }),
    ]) {
      assert.match(response.headers.get('x-ratelimit-limit') ?? '', /^\d+$/);
      assert.match(response.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/);
      assert.match(response.headers.get('x-ratelimit-reset') ?? '', /^\d+$/);
    }
  });

  it('counts per endpoint and user, then answers 429 RATE_LIMITED with Retry-After', async () => {
    const { accessToken } = await login(url, sandbox.demoAccount);
    const get = () => call(url, 'GET', '/Project/GetProjects', { token: accessToken });
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const response = await get();
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-limit'), '3');
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    assert.deepEqual(remaining, ['2', '1', '0']);
    const limited = await get();
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body.error?.type, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 2, `Retry-After ${retryAfter}`);
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    // another user and another endpoint are unaffected
    const other = await login(url, sandbox.noProjectAccount);
    assert.equal((await call(url, 'GET', '/Project/GetProjects', { token: other.accessToken })).status, 200);
    assert.equal((await call(url, 'GET', `/Project/HasAccesToProject?projectId=${crypto.randomUUID()}`, { token: accessToken })).status, 200);
    // and the window reopens after Retry-After
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 100));
    assert.equal((await get()).status, 200);
  });

  it('limits login per client IP and e-mail, before checking the password', async () => {
    const attempt = (email: string) => call(url, 'POST', '/Auth/Login', { json: { email, password: 'wrong-password' } });
    const email = 'guess@printdesk.test';
    for (let i = 0; i < 4; i++) assert.equal((await attempt(email)).status, 400);
    const limited = await attempt(email);
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error?.type, 'RATE_LIMITED');
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.equal((await attempt('other@printdesk.test')).status, 400);
  });

  it('limits login per client IP too: a new e-mail with each try runs out as well, and so does the real account', async () => {
    const own = await startTestSandbox({ rateLimits: { 'Auth/Login:ip': { limit: 5, windowSeconds: 60 } } });
    try {
      const attempt = (email: string, password = 'wrong-password') => call(own.baseUrl, 'POST', '/Auth/Login', { json: { email, password } });
      for (let i = 0; i < 5; i++) assert.equal((await attempt(`guess-${i}@printdesk.test`)).status, 400);
      const limited = await attempt('guess-5@printdesk.test');
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error?.type, 'RATE_LIMITED');
      assert.ok(Number(limited.headers.get('retry-after')) > 0);
      assert.equal(limited.headers.get('x-ratelimit-limit'), '5', 'the headers tell of the limit that refused');
      assert.equal((await attempt(own.demoAccount.email, own.demoAccount.password)).status, 429);
    } finally {
      await own.dispose();
    }
  });

  it('checks a few passwords at a time; more than wait in line are answered 429 with Retry-After, and the rest go through', async () => {
    const own = await startTestSandbox({ passwordChecks: { concurrent: 1, waiting: 2 } });
    try {
      const attempts = Array.from({ length: 20 }, (_, i) => call(own.baseUrl, 'POST', '/Auth/Login', { json: { email: `burst-${i}@printdesk.test`, password: 'wrong-password' } }));
      const answers = await Promise.all(attempts);
      const busy = answers.filter((answer) => answer.status === 429);
      assert.ok(busy.length >= 1, `of 20 at once, some are turned away: ${answers.map((a) => a.status).join(' ')}`);
      assert.ok(answers.filter((answer) => answer.status === 400).length >= 3, 'those in line are checked');
      for (const answer of busy) {
        assert.equal(answer.body.error?.type, 'RATE_LIMITED');
        assert.equal(answer.headers.get('retry-after'), '1');
      }
      assert.equal((await call(own.baseUrl, 'POST', '/Auth/Login', { json: own.demoAccount })).status, 200, 'once the burst is over, sign-in works');
    } finally {
      await own.dispose();
    }
  });
});

describe('bad input', () => {
  before(async () => {
    sandbox = await startTestSandbox();
    url = sandbox.baseUrl;
  });
  after(() => sandbox.dispose());

  const post = (path: string, rawBody: string | Uint8Array, contentType = 'application/json') =>
    call(url, 'POST', path, { rawBody, headers: { 'Content-Type': contentType } });

  function assert4xx(response: { status: number; body: { success: boolean; error?: { type: string } } }, status: number) {
    assert.equal(response.status, status, JSON.stringify(response.body));
    assert.equal(response.body.success, false);
    assert.equal(typeof response.body.error?.type, 'string');
  }

  it('answers malformed JSON with 400 INCORRECT_PARAMETERS', async () => {
    for (const body of ['{', '{"email": }', "{'email':'x'}", 'null x', '\u0000']) {
      const response = await post('/Auth/Login', body);
      assert4xx(response, 400);
      assert.equal(response.body.error?.type, 'INCORRECT_PARAMETERS');
    }
  });

  it('answers JSON that is not an object with 400', async () => {
    for (const body of ['null', '42', '"text"', '[]', 'true']) assert4xx(await post('/Auth/Login', body), 400);
  });

  it('answers invalid UTF-8 with 400', async () => {
    assert4xx(await post('/Auth/Login', new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 400);
  });

  it('answers a wrong content type with 415', async () => {
    assert4xx(await post('/Auth/Login', JSON.stringify(sandbox.demoAccount), 'text/plain'), 415);
    assert4xx(await post('/Auth/Login', 'email=a&password=b', 'application/x-www-form-urlencoded'), 415);
    assert.equal((await post('/Auth/Login', JSON.stringify(sandbox.demoAccount), 'application/json; charset=utf-8')).status, 200);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const huge = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) });
    assert4xx(await post('/Auth/Login', huge), 413);
    // the connection stays usable for the next request
    assert.equal((await post('/Auth/Login', JSON.stringify(sandbox.demoAccount))).status, 200);
  });

  it('answers a chunked body over 1 MiB with 413', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${url}/Auth/Login`, { method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 40; i++) req.write('x'.repeat(64 * 1024));
      req.end();
    });
    assert.equal(status, 413);
  });

  it('treats unicode in every string field as data', async () => {
    const strings = ['Zoë', '日本語', '🧑‍🚀🚀', 'e\u0301', '\u202etxt', 'a\u0000b', "'; DROP TABLE users; --", 'x'.repeat(10000)];
    for (const value of strings) {
      assert4xx(await call(url, 'POST', '/Auth/Login', { json: { email: value, password: value } }), 400);
      assert4xx(await call(url, 'POST', '/Auth/RefreshToken', { json: { refreshToken: value } }), 401);
      const { accessToken } = await login(url, sandbox.noProjectAccount);
      assert4xx(await call(url, 'GET', `/Project/HasAccesToProject?projectId=${encodeURIComponent(value)}`, { token: accessToken }), 400);
    }
  });

  it('lets an operator-created user with a unicode password sign in', async () => {
    await sandbox.operator.addUser('zoë@exämple.test', 'pässwörd-🔑');
    assert.equal((await call(url, 'POST', '/Auth/Login', { json: { email: 'zoë@exämple.test', password: 'pässwörd-🔑' } })).status, 200);
  });

  it('answers unparseable HTTP with an envelope', async () => {
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const garbage = await raw('HELLO THERE\r\n\r\n');
    assert.match(garbage, /^HTTP\/1\.1 400/);
    assert.match(garbage, /"success":false/);
    const huge = await raw(`GET /v2/Project/GetProjects HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
    assert.match(huge, /^HTTP\/1\.1 431/);
    assert.match(huge, /"type":"INCORRECT_PARAMETERS"/);
  });

  it('answers odd methods and paths with an envelope', async () => {
    assert4xx(await call(url, 'PATCH', '/Auth/Login'), 405);
    assert4xx(await call(url, 'GET', '/Project/GetProjects/'), 404);
    assert4xx(await call(url, 'GET', '/%E0%A4%A'), 404);
  });
});
