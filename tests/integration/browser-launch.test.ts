// Browser mode hands the browser a file only this user can read, never the secret on a command line.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startBrowserMode } from '../../electron/browser/main.ts';

test('the launch file forwards to the app with its secret, is readable by its owner only, and goes at close', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'browser-launch-'));
  try {
    const running = await startBrowserMode({ userDataDir: dir });
    const { launchFile, server } = running;
    try {
      assert.equal(statSync(launchFile).mode & 0o777, 0o600);
      assert.ok(readFileSync(launchFile, 'utf8').includes(`location.replace(${JSON.stringify(server.url)})`));
      assert.ok(server.url.includes(server.secret));
    } finally {
      await running.close();
    }
    assert.equal(existsSync(launchFile), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
