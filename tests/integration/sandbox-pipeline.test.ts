// The request pipeline with routes that misbehave: an unexpected exception becomes a 500
// INTERNAL_ERROR envelope that names an incident, its text goes to the log under that id, and the
// server keeps serving. Also: closing a sandbox does not wait for a stalled response.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createFaultInjector } from '../../sandbox/faults.ts';
import { createPipeline } from '../../sandbox/pipeline.ts';
import { createRateLimiter } from '../../sandbox/rate-limit.ts';
import type { Route, Services } from '../../sandbox/router.ts';
import { call, login, startTestSandbox } from '../../sandbox/testing.ts';

const boom: Route = {
  method: 'GET', path: '/Test/Boom', auth: false, body: 'none',
  handle() {
    throw new TypeError('Cannot read properties of undefined (reading \'x\')');
  },
};
const asyncBoom: Route = {
  method: 'POST', path: '/Test/AsyncBoom', auth: false, body: 'json',
  async handle() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    throw 'a thrown string';
  },
};
const fine: Route = { method: 'GET', path: '/Test/Fine', auth: false, body: 'none', handle: () => ({ status: 200, body: { success: true, data: 1 } }) };

describe('pipeline', () => {
  let server: http.Server;
  let url: string;
  const logged: string[] = [];
  before(async () => {
    server = http.createServer(
      createPipeline({
        routes: [boom, asyncBoom, fine],
        services: {} as Services,
        limiter: createRateLimiter(),
        faults: createFaultInjector(),
        adminSecret: 'secret',
        signal: new AbortController().signal,
        log: () => {},
        logError: (line) => logged.push(line),
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('turns exceptions into 500 INTERNAL_ERROR naming an incident, logs their text under it, and keeps serving', async () => {
    const sync = await call(url, 'GET', '/Test/Boom');
    assert.equal(sync.status, 500);
    assert.equal(sync.body.error?.type, 'INTERNAL_ERROR');
    const incident = /^Unexpected error in the service \(incident ([0-9a-f]{8})\); the service's log has the details$/.exec(sync.body.error?.message ?? '')?.[1];
    assert.ok(incident, sync.body.error?.message);
    assert.ok(sync.headers.get('x-ratelimit-limit'));
    assert.ok(logged.some((line) => line.includes(`GET /v2/Test/Boom failed (incident ${incident})`) && line.includes("Cannot read properties of undefined (reading 'x')") && line.includes('at Object.handle')));
    const async = await call(url, 'POST', '/Test/AsyncBoom', { json: {} });
    assert.equal(async.status, 500);
    assert.doesNotMatch(async.body.error?.message ?? '', /thrown string/);
    assert.ok(logged.some((line) => line.includes('a thrown string')));
    assert.equal((await call(url, 'GET', '/Test/Fine')).status, 200);
  });

  it('answers only requests addressed to loopback: a rebound foreign name gets 421', async () => {
    const { port } = server.address() as AddressInfo;
    const statusFor = (host: string) =>
      new Promise<number | undefined>((resolve) => {
        http.request({ host: '127.0.0.1', port, path: '/v2/Test/Fine', headers: { host } }, (res) => (res.resume(), resolve(res.statusCode))).end();
      });
    assert.equal(await statusFor(`evil.example:${port}`), 421);
    assert.equal(await statusFor('evil.example'), 421);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) assert.equal(await statusFor(host), 200, host);
  });
});

describe('closing', () => {
  it('does not wait for stalled responses', async () => {
    const sandbox = await startTestSandbox();
    const { accessToken } = await login(sandbox.baseUrl, sandbox.demoAccount);
    sandbox.faults.set({ kind: 'stall', ms: 60_000 });
    const pending = call(sandbox.baseUrl, 'GET', '/Project/GetProjects', { token: accessToken }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await sandbox.dispose();
    assert.ok(Date.now() - started < 2000, `close took ${Date.now() - started} ms`);
    assert.ok((await pending) instanceof Error);
  });
});
