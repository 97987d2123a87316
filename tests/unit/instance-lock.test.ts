// One PrintDesk per data folder: who has it, a crashed instance's file taken over, a release that never
// removes another instance's claim.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { claimInstance, instanceFile, runningInstance } from '../../electron/services/instance/lock.ts';

const base = mkdtempSync(join(tmpdir(), 'printdesk-instance-'));
after(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
const folder = () => mkdtempSync(join(base, `${++n}-`));

/** A process number that is surely gone: a child that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid!;

test('the first claim has the folder; a second is told who has it; after the release it is free', () => {
  const dir = folder();
  const first = claimInstance(dir, 'browser');
  assert.ok(first.claimed);
  assert.equal(statSync(instanceFile(dir)).mode & 0o777, 0o600);
  const second = claimInstance(dir, 'browser');
  assert.equal(second.claimed, false);
  assert.equal(!second.claimed && second.running.pid, process.pid);
  assert.equal(runningInstance(dir)?.mode, 'browser');
  first.claim.release();
  assert.equal(runningInstance(dir), null);
  assert.ok(claimInstance(dir, 'electron').claimed);
});

test("an instance whose process is gone (a crash) is taken over, and the CLI does not see it as running", () => {
  const dir = folder();
  writeFileSync(instanceFile(dir), JSON.stringify({ pid: deadPid(), mode: 'browser', startedAt: '2026-01-01T00:00:00Z', claimId: 'gone' }));
  assert.equal(runningInstance(dir), null);
  assert.ok(claimInstance(dir, 'browser').claimed);
});

test('an unreadable instance file is taken over', () => {
  const dir = folder();
  writeFileSync(instanceFile(dir), '{ half');
  assert.ok(claimInstance(dir, 'browser').claimed);
});

test('the desktop app supersedes a desktop entry (Electron\'s own lock settled that), not a browser-mode one', () => {
  const dir = folder();
  assert.ok(claimInstance(dir, 'electron').claimed);
  assert.ok(claimInstance(dir, 'electron', { supersedes: 'electron' }).claimed);
  const browserDir = folder();
  assert.ok(claimInstance(browserDir, 'browser').claimed);
  assert.equal(claimInstance(browserDir, 'electron', { supersedes: 'electron' }).claimed, false);
});

test('an update adds the address for a second launch; a stale release leaves a newer claim alone', () => {
  const dir = folder();
  const first = claimInstance(dir, 'browser');
  assert.ok(first.claimed);
  first.claim.update({ origin: 'http://127.0.0.1:1234', handoffSecret: 's' });
  assert.equal(runningInstance(dir)?.origin, 'http://127.0.0.1:1234');
  const newer = claimInstance(dir, 'electron', { supersedes: 'browser' });
  assert.ok(newer.claimed);
  first.claim.release();
  first.claim.update({ origin: 'http://127.0.0.1:9', handoffSecret: 'x' });
  assert.equal(JSON.parse(readFileSync(instanceFile(dir), 'utf8')).mode, 'electron');
});
