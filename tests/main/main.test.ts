import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { channelNames, GRANT_PATH_CHANNEL } from '../../electron/contract/channels.ts';
import { RENDERER_CSP } from '../../electron/shell/csp.ts';
import { assertClosedToOthers, notPrivate } from '../private-tree.ts';
import { record, type FakeWindow } from './fake-electron.ts';
import { importMain } from './import-main.ts';

let window: FakeWindow;

before(async () => {
  // As an older PrintDesk left it: a folder and a settings file others could read.
  chmodSync(record.userDataDir, 0o755);
  writeFileSync(join(record.userDataDir, 'config.json'), '{}', { mode: 0o644 });
  await importMain();
  const deadline = Date.now() + 10_000;
  while (!record.windows[0]?.loaded && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  window = record.windows[0];
  assert.ok(window, 'main.ts opened no window');
});

after(async () => {
  // Idempotent: the quit test below may have closed the host already.
  for (const listener of record.appListeners.get('before-quit') ?? []) await listener({ preventDefault: () => {} });
});

test('takes the single-instance lock and enables the sandbox before anything else', () => {
  assert.deepEqual(record.calls.slice(0, 3), ['requestSingleInstanceLock', 'enableSandbox', 'registerSchemesAsPrivileged']);
  assert.ok(record.appListeners.has('second-instance'));
});

test('the data folder and everything the app wrote in it are its user\'s alone (0700 folders, 0600 files)', (t) => {
  assert.deepEqual(notPrivate(record.userDataDir), []);
  assertClosedToOthers(t, record.userDataDir);
});

test('a second launch hands its files to this window and brings it forward', async () => {
  const [secondInstance] = record.appListeners.get('second-instance') ?? [];
  const takeOpened = record.handlers.get('files:takeOpened');
  assert.ok(takeOpened);
  const ours = { senderFrame: window.webContents.mainFrame };
  const focused = () => record.calls.filter((call) => call === 'window.focus').length;
  const before = focused();
  // Electron passes what the second launch gave requestSingleInstanceLock: its paths, resolved where it started.
  secondInstance({}, ['/opt/PrintDesk/printdesk', 'part.stl'], '/home/ada/models', { paths: ['/home/ada/models/part.stl'] });
  assert.equal(focused(), before + 1);
  assert.deepEqual(await takeOpened(ours, undefined), { ok: true, value: ['/home/ada/models/part.stl'] });
  // Without it (another app's launcher), its arguments, relative to its working folder; switches are not files.
  secondInstance({}, ['/opt/PrintDesk/printdesk', '--no-sandbox', 'gear.3mf', '/tmp/nut.obj'], '/home/ada/models', undefined);
  assert.deepEqual(await takeOpened(ours, undefined), { ok: true, value: ['/home/ada/models/gear.3mf', '/tmp/nut.obj'] });
  assert.ok(Array.isArray((record.lockData as { paths: unknown }).paths), 'this launch offered its own files to the lock');
});

test('opens exactly one window, isolated, sandboxed and without Node', () => {
  assert.equal(record.windows.length, 1);
  const prefs = window.options.webPreferences as Record<string, unknown>;
  assert.equal(prefs.contextIsolation, true);
  assert.equal(prefs.sandbox, true);
  assert.equal(prefs.nodeIntegration, false);
  assert.equal(prefs.nodeIntegrationInWorker, false);
  assert.equal(prefs.webviewTag, false);
  assert.equal(prefs.webSecurity, true);
  assert.equal(prefs.disableBlinkFeatures, 'Auxclick', 'a middle click opens no window');
  assert.equal(prefs.preload, join(record.appRoot, 'dist', 'electron', 'preload.cjs'));
  assert.equal(window.loaded, 'app://printdesk/index.html');
});

test('the page comes from app://printdesk/, a secure origin whose handler serves nothing outside the renderer', async () => {
  assert.deepEqual(record.privilegedSchemes.map((s) => [s.scheme, s.privileges.standard, s.privileges.secure]), [['app', true, true]]);
  const serve = record.protocols.get('app');
  assert.ok(serve, 'app:// has a handler');
  // What it serves is checked in tests/unit/app-protocol.test.ts (dist/ may not be built yet here).
  for (const url of ['app://printdesk/../../package.json', 'app://printdesk/%2e%2e/%2e%2e/package.json', 'app://elsewhere/index.html']) {
    assert.equal((await serve(new Request(url))).status, 404, url);
  }
});

test('the page carries the strict CSP declared in csp.ts', () => {
  const html = readFileSync(join(record.appRoot, 'renderer', 'index.html'), 'utf8');
  const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html);
  assert.equal(meta?.[1], RENDERER_CSP);
  assert.doesNotMatch(RENDERER_CSP, /unsafe-eval|script-src[^;]*unsafe-inline/);
});

test('denies navigation away from the app and every new window', () => {
  let prevented = false;
  window.webContents.emit('will-navigate', { preventDefault: () => (prevented = true) }, 'https://example.com/');
  assert.equal(prevented, true);
  assert.deepEqual(window.webContents.windowOpenHandler?.({ url: 'https://example.com/' }), { action: 'deny' });
  let webview = false;
  window.webContents.emit('will-attach-webview', { preventDefault: () => (webview = true) });
  assert.equal(webview, true);
  let granted: boolean | null = null;
  window.webContents.permissionHandler?.(null, 'media', (answer: boolean) => (granted = answer));
  assert.equal(granted, false);
  assert.equal(window.webContents.permissionCheckHandler?.(null, 'notifications'), false);
  assert.equal(window.webContents.devicePermissionHandler?.({ deviceType: 'hid' }), false);
});

test("registers every contract channel and the preload's grant, and nothing else", () => {
  assert.deepEqual([...record.handlers.keys()].sort(), [...channelNames, GRANT_PATH_CHANNEL].sort());
  assert.deepEqual([...record.ipcOn.keys()], [], 'no ipcMain.on listeners may remain');
});

test('answers our own main frame and refuses any other sender', async () => {
  const handler = record.handlers.get('session:get');
  assert.ok(handler);
  const ours = await handler({ senderFrame: window.webContents.mainFrame }, undefined);
  assert.deepEqual(ours, { ok: true, value: { status: 'signed-out', email: null, endedReason: null } });
  const stranger = await handler({ senderFrame: { url: 'https://evil.example/' } }, undefined);
  assert.equal((stranger as { ok: boolean }).ok, false);
  assert.equal((stranger as { error: { code: string } }).error.code, 'NO_PERMISSION');
});

test('the page may name a file only once our own preload has vouched for it', async () => {
  const grant = record.handlers.get(GRANT_PATH_CHANNEL);
  const enqueue = record.handlers.get('uploads:enqueue');
  assert.ok(grant && enqueue);
  const path = join(tmpdir(), 'dropped', 'part.stl');
  const input = { projectId: '00000000-0000-4000-8000-000000000000', paths: [path] };
  const ours = { senderFrame: window.webContents.mainFrame };
  const refused = (await enqueue(ours, input)) as { ok: boolean; error: { message: string } };
  assert.equal(refused.ok, false);
  assert.match(refused.error.message, /PrintDesk was not given part\.stl/);
  await grant({ senderFrame: { url: 'https://evil.example/' } }, path);
  assert.match(((await enqueue(ours, input)) as { error: { message: string } }).error.message, /was not given/, 'a stranger cannot vouch');
  await grant(ours, path);
  const after = (await enqueue(ours, input)) as { ok: boolean; error?: { message: string } };
  assert.doesNotMatch(after.error?.message ?? '', /was not given/);
});

test('validates input against the contract before any handler runs', async () => {
  const handler = record.handlers.get('projects:select');
  const result = (await handler?.({ senderFrame: window.webContents.mainFrame }, { projectId: 'not-a-guid' })) as {
    ok: boolean;
    error: { code: string };
  };
  assert.equal(result.ok, false);
  assert.equal(result.error.code, 'INVALID_INPUT');
});

test('sets an application menu', () => {
  assert.equal(record.menus.length, 1);
  assert.doesNotMatch(JSON.stringify(record.menus[0]), /toggleDevTools/, 'a packaged app has no developer tools in its menu');
});

test('a quit waits for the host to close (orders on their way are written down), then goes ahead', async () => {
  const [beforeQuit] = record.appListeners.get('before-quit') ?? [];
  assert.ok(beforeQuit);
  let prevented = false;
  const quitsBefore = record.calls.filter((c) => c === 'quit').length;
  await beforeQuit({ preventDefault: () => (prevented = true) });
  assert.equal(prevented, true, 'the first quit is held');
  const deadline = Date.now() + 10_000;
  while (record.calls.filter((c) => c === 'quit').length === quitsBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(record.calls.filter((c) => c === 'quit').length, quitsBefore + 1, 'quits again once the host has closed');
  prevented = false;
  await beforeQuit({ preventDefault: () => (prevented = true) });
  assert.equal(prevented, false, 'the second quit goes through');
});
