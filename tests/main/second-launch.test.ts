// A second desktop launch on the same data folder (Electron's lock is taken) quits: the first gets its files.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { record } from './fake-electron.ts';
import { importMain } from './import-main.ts';

before(async () => {
  record.singleInstanceLock = false;
  process.argv.push('model.stl');
  await importMain();
});

test('without the single-instance lock the launch hands its files to Electron and quits, opening nothing', async () => {
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(record.calls, ['requestSingleInstanceLock', 'quit']);
  assert.ok((record.lockData as { paths: string[] }).paths.includes(`${process.cwd()}/model.stl`), 'its file, resolved where it was started');
  assert.equal(record.windows.length, 0);
});
