// What PrintDesk keeps on disk is for the user who runs it alone: customers' names and addresses, password
// hashes, signing keys, models. Every folder it makes is 0700 and every file 0600, given explicitly where the
// file or folder is made (the umask only narrows a mode further, and an older install's 0755 folder or 0644
// file is taken back here). Every front door (the Electron app, browser mode, the CLI) uses these, so no door
// writes with the system's defaults. No Electron. The sandbox keeps its own (sandbox/private-files.ts).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Options for fs writes that create a file: this user alone may read it. */
export const PRIVATE_FILE = { mode: PRIVATE_FILE_MODE } as const;
/** Options for fs.mkdir: missing folders on the way are made for this user alone too. */
export const PRIVATE_DIR = { recursive: true, mode: PRIVATE_DIR_MODE } as const;

/**
 * Makes `dir` (and any missing parent) for this user alone, and takes back an existing one that others could
 * open. A folder this user does not own cannot be changed: it is used as it is, its files still being 0600.
 */
export function makePrivateDir(dir: string): string {
  fs.mkdirSync(dir, PRIVATE_DIR);
  chmodOwn(dir, PRIVATE_DIR_MODE);
  return dir;
}

/**
 * Creates `file` empty for this user alone if it is missing, and takes back an existing one. For files a
 * library creates with its own default mode: SQLite opens an existing file as it is and gives its -wal and
 * -shm files the database file's own mode.
 */
function preparePrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodOwn(file, PRIVATE_FILE_MODE);
}

/** Writes `data` to `file` for this user alone, whether the write creates it or replaces an older one. */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  fs.writeFileSync(file, data, PRIVATE_FILE);
  chmodOwn(file, PRIVATE_FILE_MODE);
}

/**
 * Creates `file` holding `data`, for this user alone, unless it exists: false then. A reader never sees it
 * half written (it is written beside and linked into place), and of two processes creating it at once exactly
 * one does.
 */
export function createPrivateFileOnce(file: string, data: string): boolean {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, data, { ...PRIVATE_FILE, flag: 'wx' });
  try {
    fs.linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // A file system without hard links (FAT, some network shares): created exclusively in place instead.
    return createExclusive(file, data);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

function createExclusive(file: string, data: string): boolean {
  try {
    fs.writeFileSync(file, data, { ...PRIVATE_FILE, flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Takes back a file an older install left readable by others, if it is there (written later by a library). */
export function makePrivateIfPresent(file: string): void {
  if (fs.existsSync(file)) chmodOwn(file, PRIVATE_FILE_MODE);
}

/**
 * A SQLite database file and its folder, ready to open for this user alone: SQLite gives the -wal and -shm
 * files it creates the database file's mode, and those an older install left are taken back here.
 */
export function preparePrivateDatabase(file: string): void {
  makePrivateDir(path.dirname(file));
  preparePrivateFile(file);
  makePrivateIfPresent(`${file}-wal`);
  makePrivateIfPresent(`${file}-shm`);
}

/**
 * Belt and braces for a front door's process: whatever a library or Chromium creates without a mode of its
 * own is this user's alone. Not where files are made: those give their modes explicitly.
 */
export function restrictUmask(): void {
  // Worker threads cannot set it, and Windows has no such bits.
  if (process.platform !== 'win32') process.umask(0o077);
}

function chmodOwn(target: string, mode: number): void {
  if (process.platform === 'win32') return;
  try {
    if ((fs.statSync(target).mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch (error) {
    // Someone else's folder (PRINTDESK_USER_DATA pointed at a shared one): our files in it are still 0600.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}
