// Checks that what PrintDesk wrote is its user's alone: by the mode bits, and from a second account's
// view (`runuser -u nobody`), which needs root, as CI has.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

interface Entry {
  path: string;
  kind: 'dir' | 'file';
  mode: number;
}

function walk(dir: string): Entry[] {
  const entries: Entry[] = [{ path: dir, kind: 'dir', mode: lstatSync(dir).mode & 0o777 }];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const info = lstatSync(path);
    if (info.isDirectory()) entries.push(...walk(path));
    else if (info.isFile()) entries.push({ path, kind: 'file', mode: info.mode & 0o777 });
  }
  return entries;
}

/** Every folder under `dir` (itself included) that is not 0700 and every file that is not 0600, as "path 0644". */
export function notPrivate(dir: string): string[] {
  return walk(dir)
    .filter((entry) => entry.mode !== (entry.kind === 'dir' ? 0o700 : 0o600))
    .map((entry) => `${entry.path} ${entry.mode.toString(8).padStart(4, '0')}`);
}

/** The files under `dir`, for a test to say what it looked at. */
export function filesUnder(dir: string): string[] {
  return walk(dir).filter((entry) => entry.kind === 'file').map((entry) => entry.path);
}

/** Why another account's view cannot be had here, or null when it can. */
export function secondAccountUnavailable(): string | null {
  if (process.platform === 'win32') return 'Windows has no such modes';
  if (process.getuid?.() !== 0) return 'not root, so runuser cannot act as nobody (CI runs as root)';
  if (spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status !== 0) return 'runuser -u nobody is not available';
  return null;
}

/** What `nobody` can read (`cat`) or list (`ls`) among these paths. */
function openToNobody(paths: string[], command: 'cat' | 'ls'): string[] {
  if (paths.length === 0) return [];
  const script = `for p; do ${command} "$p" >/dev/null 2>&1 && echo "$p"; done; true`;
  const result = spawnSync('runuser', ['-u', 'nobody', '--', 'sh', '-c', script, 'sh', ...paths], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`runuser failed: ${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean);
}

/** From the `nobody` account, in a folder it can pass through: the file cannot be read. */
export function assertUnreadableByOthers(t: TestContext, file: string): void {
  const why = secondAccountUnavailable();
  if (why) {
    t.diagnostic(`second-account check skipped: ${why}`);
    return;
  }
  assert.deepEqual(openToNobody([file], 'cat'), [], `nobody reads ${file}`);
}

/**
 * From the `nobody` account: the folder cannot be listed nor any file in it read; and, with every folder on
 * the way opened to passers-by for a moment (as a folder an older install left would be), each file still
 * cannot be read, by its own mode. `dir`'s parent must be one nobody can pass through. Skips, saying why,
 * where no second account can be used.
 */
export function assertClosedToOthers(t: TestContext, dir: string): void {
  const why = secondAccountUnavailable();
  if (why) {
    t.diagnostic(`second-account check skipped: ${why}`);
    return;
  }
  const entries = walk(dir);
  const files = entries.filter((entry) => entry.kind === 'file').map((entry) => entry.path);
  const dirs = entries.filter((entry) => entry.kind === 'dir');
  const listed = openToNobody([dir], 'ls');
  const readThroughFolders = openToNobody(files, 'cat');
  for (const entry of dirs) chmodSync(entry.path, 0o711);
  let readByMode: string[];
  try {
    readByMode = openToNobody(files, 'cat');
  } finally {
    for (const entry of dirs) chmodSync(entry.path, entry.mode);
  }
  const problems = [...listed.map((p) => `nobody lists ${p}`), ...readThroughFolders.map((p) => `nobody reads ${p}`), ...readByMode.map((p) => `nobody reads ${p} once its folder is passable`)];
  if (problems.length) throw new Error(problems.join('\n'));
  if (files.length === 0) throw new Error(`no files under ${dir}: nothing was checked`);
}
