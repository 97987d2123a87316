// The desktop app started on a data folder that browser mode already has: the files go to browser mode,
// and the desktop launch quits instead of opening the same data a second time.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBrowserMode, type RunningBrowserMode } from '../../electron/browser/main.ts';
import { bridge } from '../integration/bridge-client.ts';
import { record } from './fake-electron.ts';
import { importMain } from './import-main.ts';

let browserMode: RunningBrowserMode;

before(async () => {
  browserMode = await startBrowserMode({ userDataDir: record.userDataDir, openBrowser: false });
  process.argv.push('/home/ada/part.stl');
  await importMain();
  const deadline = Date.now() + 20_000;
  while (!record.calls.includes('quit') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
});

after(() => browserMode.close());

test('the desktop launch hands its files to browser mode on the same data folder and quits', async () => {
  assert.ok(record.calls.includes('quit'));
  assert.equal(record.windows.length, 0, 'no second window on the same data');
  const page = await bridge(browserMode.server.origin, browserMode.server.secret);
  try {
    assert.deepEqual((await page.call('files:takeOpened')).value, ['/home/ada/part.stl']);
  } finally {
    page.close();
  }
});
