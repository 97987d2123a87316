// Whether the process that marked a draft "sending" still runs, told by a lock the operating system
// releases when that process exits, not by kill(pid, 0): a killed process not yet reaped by its parent
// (a zombie) still passes that, and its orders would wait for the ten-minute sweep.
//
// Each process that sends holds `senders/<pid>.lock` beside the database, a SQLite file in an exclusive
// transaction for as long as it may send. SQLite takes that lock with fcntl() on POSIX and LockFileEx() on
// Windows; both are dropped by the kernel when the process's files are closed at exit, before it becomes a
// zombie. Another process asks by trying the same lock without waiting: busy means alive. Node has no
// flock(), and better-sqlite3 is already here (a native lock package would be one more binary to ship for
// Electron); a loopback socket would need an asynchronous check where the sweep is synchronous.
import Database from 'better-sqlite3';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { preparePrivateDatabase } from '../private-files.ts';
import type { Db } from '../storage/database.ts';

export interface SenderLock {
  /** Whether the process with this pid holds its lock: it may be sending. */
  isAlive(pid: number): boolean;
  /** Releases this process's lock (its last user on this database stops). */
  release(): void;
}

/** This process's locks, one per data folder, shared by every host in the process (tests open several). */
const held = new Map<string, { lock: Database.Database; users: number }>();

/** Whether a process runs (signal 0 only asks); EPERM is a live process of another user. Fooled by zombies. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const lockPath = (folder: string, pid: number) => join(folder, `${pid}.lock`);

/** Takes this process's lock for the database's folder; an in-memory database has no other process to tell. */
export function holdSenderLock(db: Db): SenderLock {
  if (db.memory) return { isAlive: processAlive, release: () => undefined };
  const folder = join(dirname(db.name), 'senders');
  const path = lockPath(folder, process.pid);
  let entry = held.get(path);
  if (!entry) {
    removeLocksOfGoneProcesses(folder);
    preparePrivateDatabase(path);
    const lock = new Database(path);
    lock.pragma('journal_mode = MEMORY');
    lock.exec('BEGIN EXCLUSIVE');
    entry = { lock, users: 0 };
    held.set(path, entry);
  }
  entry.users++;
  let released = false;
  return {
    isAlive: (pid) => pid === process.pid || lockedBySomeone(lockPath(folder, pid)),
    release() {
      if (released) return;
      released = true;
      const current = held.get(path);
      if (!current || --current.users > 0) return;
      held.delete(path);
      current.lock.close();
      rmSync(path, { force: true });
      removeLocksOfGoneProcesses(folder);
    },
  };
}

/** The pids whose lock files are in `folder`. */
function lockFilesIn(folder: string): number[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return names.map((name) => /^(\d+)\.lock$/.exec(name)?.[1]).filter((pid): pid is string => pid !== undefined).map(Number);
}

/**
 * The lock files of processes that ended without removing theirs (killed, crashed): one a run would otherwise
 * pile up. Only a process no longer running, whose lock nobody holds: a process that runs may be between
 * creating its file and locking it, and a zombie's pid is not yet free for another to take.
 */
export function removeLocksOfGoneProcesses(folder: string): number {
  let removed = 0;
  for (const pid of lockFilesIn(folder)) {
    if (pid === process.pid || processAlive(pid) || lockedBySomeone(lockPath(folder, pid))) continue;
    try {
      rmSync(lockPath(folder, pid), { force: true });
      removed++;
    } catch {
      // Another program on the folder removed it, or it is open elsewhere (Windows): left to the next start.
    }
  }
  return removed;
}

/** Other processes on this database (`printdesk batch` beside the app) that may be sending now, by pid. */
export function otherSenders(db: Db): number[] {
  if (db.memory) return [];
  const folder = join(dirname(db.name), 'senders');
  return lockFilesIn(folder).filter((pid) => pid !== process.pid && lockedBySomeone(lockPath(folder, pid)));
}

/** Busy means its owner lives; no file, or a lock to be had, means it has exited (or never sent). */
function lockedBySomeone(path: string): boolean {
  let probe: Database.Database;
  try {
    probe = new Database(path, { fileMustExist: true, timeout: 0 });
  } catch {
    return false;
  }
  try {
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('ROLLBACK');
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'SQLITE_BUSY' || (error as { code?: string }).code === 'SQLITE_LOCKED';
  } finally {
    probe.close();
  }
}
