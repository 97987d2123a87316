// Run from source (not packaged), PrintDesk keeps the debugging switches for development.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { app, record } from './fake-electron.ts';
import { importMain } from './import-main.ts';

before(async () => {
  app.isPackaged = false;
  process.argv.push('--inspect=9229', '--remote-debugging-port=9222');
  await importMain();
  const deadline = Date.now() + 10_000;
  while (!record.windows[0]?.loaded && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
});

after(async () => {
  for (const listener of record.appListeners.get('before-quit') ?? []) await listener({ preventDefault: () => {} });
});

test('a build run from source starts with debugging switches, with developer tools in its menu', () => {
  assert.ok(!record.calls.some((call) => call.startsWith('exit')));
  assert.equal(record.windows.length, 1);
  assert.match(JSON.stringify(record.menus[0]), /toggleDevTools/);
});
