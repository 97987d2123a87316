// app://printdesk/, the Electron window's origin: the built renderer's files and nothing else.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { RENDERER_URL, serveRenderer } from '../../electron/shell/app-protocol.ts';
import { RENDERER_CSP_HEADER } from '../../electron/shell/csp.ts';

async function renderer(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'app-protocol-'));
  const dir = join(root, 'renderer');
  await mkdir(join(dir, 'assets'), { recursive: true });
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>PrintDesk</title>');
  await writeFile(join(dir, 'assets', 'model-worker-x1.js'), 'self.onmessage = () => {};');
  await writeFile(join(root, 'secret.txt'), 'not for the page');
  return dir;
}

test('serves the page and its assets with their types, the CSP as a header, HEAD without a body', async () => {
  const serve = serveRenderer(await renderer());
  const page = await serve(new Request(RENDERER_URL));
  assert.equal(page.status, 200);
  assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(page.headers.get('content-security-policy'), RENDERER_CSP_HEADER);
  assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(await page.text(), '<!doctype html><title>PrintDesk</title>');
  const worker = await serve(new Request('app://printdesk/assets/model-worker-x1.js'));
  assert.equal(worker.headers.get('content-type'), 'text/javascript; charset=utf-8');
  const head = await serve(new Request(RENDERER_URL, { method: 'HEAD' }));
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
});

test('refuses what is outside the renderer, another host, and anything but reading', async () => {
  const serve = serveRenderer(await renderer());
  for (const url of ['app://printdesk/../secret.txt', 'app://printdesk/%2e%2e/secret.txt', 'app://printdesk/..%2fsecret.txt', 'app://printdesk/assets/missing.js', 'app://other/index.html']) {
    const response = await serve(new Request(url));
    assert.equal(response.status, 404, url);
    assert.doesNotMatch(await response.text(), /not for the page/);
  }
  assert.equal((await serve(new Request(RENDERER_URL, { method: 'POST', body: 'x' }))).status, 405);
});
