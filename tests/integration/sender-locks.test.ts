// Sender lock files (orders/sender-lock.ts) do not pile up in `senders/`: a process that ended without
// removing its own (killed) has it removed at the next start or clean stop of another, and never a lock of a
// process that still runs, held or not yet taken.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { after, test } from 'node:test';
import { holdSenderLock } from '../../electron/services/orders/sender-lock.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'sender-locks-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const children: ChildProcess[] = [];
after(() => children.forEach((child) => child.kill('SIGKILL')));

/** A process holding its sender lock on `dbPath`, once it says it does. */
async function holder(dbPath: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures', 'sender-lock-holder.ts'), dbPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk));
  while (!out.includes('held\n')) {
    if (child.exitCode !== null) throw new Error(`the lock holder exited with ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return child;
}

/** Killed, and reaped: its pid is free, as a crashed app's is by the time the next one starts. */
async function killed(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

const lockFiles = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.lock')).sort();

test('the lock files of killed senders are removed at the next start and clean stop; a running process keeps its own', { timeout: 60_000, skip: process.platform === 'win32' }, async () => {
  const dbPath = join(dir, 'printdesk.db');
  const senders = join(dir, 'senders');
  const db = openDatabase(dbPath);
  const dead = await holder(dbPath);
  const live = await holder(dbPath);
  // One that runs and has made its file but not yet locked it (as a process starting is for a moment).
  const starting = await holder(join(dir, 'elsewhere', 'printdesk.db'));
  writeFileSync(join(senders, `${starting.pid}.lock`), '');
  await killed(dead);
  assert.ok(existsSync(join(senders, `${dead.pid}.lock`)), 'a killed sender leaves its file');

  const lock = holdSenderLock(db);
  assert.deepEqual(lockFiles(senders), [`${process.pid}.lock`, `${live.pid}.lock`, `${starting.pid}.lock`].sort(), 'the killed one gone at start; the running ones kept');
  assert.equal(lock.isAlive(live.pid as number), true, "the live one's lock still tells it is alive");

  await killed(live);
  lock.release();
  assert.deepEqual(lockFiles(senders), [`${starting.pid}.lock`], 'at a clean stop its own and the killed one gone');

  await killed(starting);
  holdSenderLock(db).release();
  assert.deepEqual(lockFiles(senders), [], 'once that process ended too, nothing is left');
  db.close();
});
