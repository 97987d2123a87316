// The sandbox keeps password hashes, recipients' names and addresses, its signing key and customers' models:
// its data folder and everything in it are for the user who runs it alone (docs/storage.md). Folders are 0700
// and files 0600, given where each is made, and one an older install left open to others is taken back.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;

/** fs options for a write that creates a file. */
export const PRIVATE_FILE = { mode: PRIVATE_FILE_MODE } as const;
/** fs.mkdirSync options: folders made on the way are private too. */
export const PRIVATE_DIR = { recursive: true, mode: PRIVATE_DIR_MODE } as const;

/**
 * The database file and its folder made private before SQLite opens them: SQLite opens an existing file as it
 * is, and gives the -wal and -shm files it creates the database file's own mode.
 */
export function preparePrivateDatabase(file: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, PRIVATE_DIR);
  takeBack(dir, PRIVATE_DIR_MODE);
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const own of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(own)) takeBack(own, PRIVATE_FILE_MODE);
}

/** Writes `file` whole, whether this creates it or replaces an older one. */
export function writePrivateFile(file: string, data: string): void {
  fs.writeFileSync(file, data, PRIVATE_FILE);
  takeBack(file, PRIVATE_FILE_MODE);
}

/**
 * Creates `file` holding `data` unless it exists (false then). Of a server and an operator command starting
 * together exactly one creates it, and neither reads it half written: it is written beside and linked in.
 */
export function createPrivateFileOnce(file: string, data: string): boolean {
  const beside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(beside, data, { ...PRIVATE_FILE, flag: 'wx' });
  try {
    fs.linkSync(beside, file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    // No hard links on this file system (FAT, some network shares): created exclusively in place.
    return writeExclusive(file, data);
  } finally {
    fs.rmSync(beside, { force: true });
  }
}

function writeExclusive(file: string, data: string): boolean {
  try {
    fs.writeFileSync(file, data, { ...PRIVATE_FILE, flag: 'wx' });
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/** For `npm run sandbox`: whatever a library creates without a mode of its own is private too. */
export function restrictUmask(): void {
  if (process.platform !== 'win32') process.umask(0o077);
}

function takeBack(target: string, mode: number): void {
  // Windows has no such bits.
  if (process.platform === 'win32') return;
  try {
    if ((fs.statSync(target).mode & 0o777) !== mode) fs.chmodSync(target, mode);
  } catch (error) {
    // A folder of someone else's, given as the data folder: the files the sandbox makes in it are still 0600.
    if (errorCode(error) !== 'EPERM') throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}
