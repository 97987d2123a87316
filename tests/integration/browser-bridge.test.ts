// The browser-mode bridge refuses everyone but a page of our own origin holding this launch's secret.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { WebSocket } from 'ws';
import { BRIDGE_PATH, BYTES_PATH, startBrowserServer, type BrowserServer } from '../../electron/browser/server.ts';
import { createHost, type Host } from '../../electron/services/host.ts';
import { createMemoryVault } from '../../electron/services/session/token-vault.ts';
import { createMemoryStore } from '../../electron/services/storage/memory-store.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';

let server: BrowserServer;
let port: string;

before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bridge-'));
  await mkdir(join(dir, 'renderer'));
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
  await writeFile(join(dir, 'bridge.js'), '/* bridge */');
  const host = createHost({ mode: 'browser', version: 't', platform: 'linux', store: createMemoryStore(),
      db: openDatabase(":memory:"), vault: createMemoryVault("t"), sandbox: null });
  server = await startBrowserServer({ host, rendererDir: join(dir, 'renderer'), bridgeScript: join(dir, 'bridge.js') });
  port = new URL(server.origin).port;
});
after(() => server.close());

function connect(options: { secret?: string; origin?: string; host?: string }): Promise<{ opened: boolean; reply?: unknown; closeCode?: number }> {
  const url = `ws://127.0.0.1:${port}${BRIDGE_PATH}?secret=${encodeURIComponent(options.secret ?? server.secret)}`;
  const headers: Record<string, string> = options.host ? { host: options.host } : {};
  const ws = new WebSocket(url, { origin: options.origin ?? server.origin, headers });
  return new Promise((resolve) => {
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, channel: 'session:get' })));
    ws.on('message', (data) => {
      resolve({ opened: true, reply: JSON.parse(String(data)) });
      ws.close();
    });
    ws.on('unexpected-response', () => resolve({ opened: false }));
    ws.on('error', () => resolve({ opened: false }));
    ws.on('close', (code) => resolve({ opened: true, closeCode: code }));
  });
}

test('our page with the secret reaches the host through the contract', async () => {
  const result = await connect({});
  assert.deepEqual(result.reply, { id: 1, result: { ok: true, value: { status: 'signed-out', email: null, endedReason: null } } });
});

test('a wrong or missing secret is refused', async () => {
  assert.equal((await connect({ secret: 'guess' })).opened, false);
  assert.equal((await connect({ secret: '' })).opened, false);
});

test('another origin is refused even with the secret', async () => {
  assert.equal((await connect({ origin: 'http://evil.example' })).opened, false);
  assert.equal((await connect({ origin: 'null' })).opened, false);
});

test('a foreign Host header (DNS rebinding) is refused', async () => {
  assert.equal((await connect({ host: `evil.example:${port}` })).opened, false);
  const status = await new Promise<number | undefined>((resolve) => {
    request({ host: '127.0.0.1', port, path: '/', headers: { host: `evil.example:${port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).end();
  });
  assert.equal(status, 421);
});

test('the page is served with a strict CSP, the bridge script first, and no secret in it', async () => {
  const response = await fetch(`${server.origin}/`);
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  const html = await response.text();
  assert.match(html, /<head><script src="\/__printdesk\/bridge\.js"><\/script>/);
  assert.ok(!html.includes(server.secret));
  for (const path of ['/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc%2fpasswd']) {
    const body = await (await fetch(`${server.origin}${path}`)).text();
    assert.ok(!body.includes('root:'), `${path} escaped the renderer folder`);
  }
});

test('a malformed message closes the connection', async () => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${BRIDGE_PATH}?secret=${server.secret}`, { origin: server.origin });
  const code = await new Promise<number>((resolve) => {
    ws.on('open', () => ws.send('{"nope": true}'));
    ws.on('close', (c) => resolve(c));
  });
  assert.equal(code, 1008);
});

test('a peer that resets a refused upgrade, or sends too much or invalid UTF-8, is dropped and the host stays up', async () => {
  const { connect: tcp } = await import('node:net');
  await new Promise<void>((resolve) => {
    const socket = tcp(Number(port), '127.0.0.1', () => {
      socket.write(`GET ${BRIDGE_PATH}?secret=nope HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nOrigin: http://evil.example\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
      socket.resetAndDestroy();
      setTimeout(resolve, 100);
    });
    socket.on('error', () => undefined);
  });
  for (const send of [(ws: WebSocket) => ws.send(Buffer.alloc(17 * 1024 * 1024, 32)), (ws: WebSocket) => ws.send(Buffer.from([0xc3, 0x28]), { binary: false })]) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${BRIDGE_PATH}?secret=${server.secret}`, { origin: server.origin });
    ws.on('error', () => undefined);
    await new Promise<void>((resolve) => {
      ws.on('open', () => send(ws));
      ws.on('close', () => resolve());
    });
  }
  assert.equal((await connect({})).opened, true, 'the host still answers');
});

test('a large byte array in a result is fetched over HTTP once, by our page with the secret', async (t) => {
  const file = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);
  // Only invoke and subscribe are used by the server: a host that answers every call with a model file.
  const host = { invoke: async () => ({ ok: true, value: { name: 'big.stl', bytes: file, source: 'local' } }), subscribe: () => () => undefined } as unknown as Host;
  const dir = await mkdtemp(join(tmpdir(), 'bridge-bytes-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head></head></html>');
  const bytesServer = await startBrowserServer({ host, rendererDir: dir, bridgeScript: join(dir, 'bridge.js') });
  t.after(() => bytesServer.close());
  const ws = new WebSocket(`ws://127.0.0.1:${new URL(bytesServer.origin).port}${BRIDGE_PATH}?secret=${bytesServer.secret}`, { origin: bytesServer.origin });
  const frame = await new Promise<string>((resolve) => {
    ws.on('open', () => ws.send(JSON.stringify({ id: 5, channel: 'library:modelFile', input: {} })));
    ws.on('message', (data, binary) => resolve(binary ? '(binary)' : String(data)));
  });
  assert.ok(frame.length < 500, 'the frame names the bytes instead of carrying them');
  const parked = (JSON.parse(frame) as { result: { value: { bytes: { $parked: [string, number] } } } }).result.value.bytes.$parked;
  assert.equal(parked[1], file.byteLength);
  const url = (secret: string) => `${bytesServer.origin}${BYTES_PATH}?secret=${encodeURIComponent(secret)}&token=${parked[0]}`;
  assert.equal((await fetch(url('guess'))).status, 403);
  assert.equal((await fetch(url(bytesServer.secret), { headers: { 'sec-fetch-site': 'cross-site' } })).status, 403, 'a fetch another site started');
  const lookalike = await fetch(url(bytesServer.secret).replace(BYTES_PATH, `${BYTES_PATH}x`));
  assert.match(lookalike.headers.get('content-type') ?? '', /text\/html/, 'only the path itself gives bytes; another is the page');
  const response = await fetch(url(bytesServer.secret));
  assert.equal(response.status, 200);
  assert.deepEqual(new Uint8Array(await response.arrayBuffer()), file);
  assert.equal((await fetch(url(bytesServer.secret))).status, 404, 'a token is good for one fetch');
  // What a page leaves unfetched goes with its connection.
  ws.send(JSON.stringify({ id: 6, channel: 'library:modelFile', input: {} }));
  const unfetched = await new Promise<string>((resolve) => ws.once('message', (data) => resolve((JSON.parse(String(data)) as { result: { value: { bytes: { $parked: [string] } } } }).result.value.bytes.$parked[0])));
  await new Promise((resolve) => {
    ws.once('close', resolve);
    ws.close();
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal((await fetch(`${bytesServer.origin}${BYTES_PATH}?secret=${encodeURIComponent(bytesServer.secret)}&token=${unfetched}`)).status, 404);
});

test('source maps are served only when asked for (they would show the renderer\'s source to any local page)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'bridge-maps-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head></head></html>');
  await writeFile(join(dir, 'assets', 'index.js'), 'console.log(1);\n//# sourceMappingURL=index.js.map');
  await writeFile(join(dir, 'assets', 'index.js.map'), '{"version":3,"sources":["App.svelte"]}');
  const host = { invoke: async () => ({ ok: true, value: null }), subscribe: () => () => undefined } as unknown as Host;
  for (const sourceMaps of [false, true]) {
    const mapsServer = await startBrowserServer({ host, rendererDir: dir, bridgeScript: join(dir, 'bridge.js'), sourceMaps });
    t.after(() => mapsServer.close());
    assert.equal((await fetch(`${mapsServer.origin}/assets/index.js`)).status, 200);
    assert.equal((await fetch(`${mapsServer.origin}/assets/index.js.map`)).status, sourceMaps ? 200 : 404, `sourceMaps: ${sourceMaps}`);
  }
});
