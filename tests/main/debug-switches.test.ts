// A packaged PrintDesk started with a debugging switch quits before it does anything: no lock, no window.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { record } from './fake-electron.ts';
import { importMain } from './import-main.ts';

before(async () => {
  process.argv.push('--remote-debugging-port=9222');
  await importMain();
});

test('a packaged app started with --remote-debugging-port exits at once, having started nothing', async () => {
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(record.calls, ['exit 1']);
  assert.equal(record.windows.length, 0);
  assert.equal(record.appListeners.size, 0);
});
