// Browser mode keeps copies of dropped files for their uploads: a paused upload's copy must survive a
// restart, when nobody is signed in yet and the page's upload list is empty.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { startBrowserMode } from '../../electron/browser/main.ts';
import { STAGE_PATH } from '../../electron/browser/server.ts';
import { bridge } from './bridge-client.ts';

function stl(facets: number): Buffer {
  const b = Buffer.alloc(84 + 50 * facets);
  b.writeUInt32LE(facets, 80);
  for (let i = 0; i < facets; i++) { const o = 84 + 50 * i; b.writeFloatLE(1, o + 12 + 0); b.writeFloatLE(i, o + 24 + 4); b.writeFloatLE(1, o + 36 + 8); }
  return b;
}

test('the staged copy of a paused upload survives a restart', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pd-prune-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const run1 = await startBrowserMode({ userDataDir: dir, openBrowser: false });
  const { origin, secret } = run1.server;
  const res = await fetch(`${origin}${STAGE_PATH}?secret=${secret}&name=part.stl`, { method: 'POST', body: new Uint8Array(stl(200_000)), headers: { origin, 'content-type': 'application/octet-stream' } });
  const { path } = (await res.json()) as { path: string };
  const b = await bridge(origin, secret);
  const { demoAccount } = (await b.call('app:info')).value as { demoAccount: unknown };
  await b.call('session:signIn', demoAccount);
  const [project] = (await b.call('projects:list')).value as Array<{ projectId: string }>;
  await b.call('uploads:enqueue', { projectId: project.projectId, paths: [path] });
  await b.call('uploads:pauseAll');
  b.close();
  await run1.close();
  assert.ok(existsSync(path));
  // The user comes back the next day.
  const old = new Date(Date.now() - 2 * 3600_000);
  await utimes(dirname(path), old, old);
  const run2 = await startBrowserMode({ userDataDir: dir, openBrowser: false });
  const gone = !existsSync(path);
  const b2 = await bridge(run2.server.origin, run2.server.secret);
  await b2.call('session:signIn', demoAccount);
  const items = (await b2.call('uploads:list')).value as Array<{ state: string }>;
  b2.close();
  await run2.close();
  assert.equal(gone, false, 'the staged copy of a paused upload was deleted at start');
  assert.deepEqual(items.map((item) => item.state), ['paused']);
});
