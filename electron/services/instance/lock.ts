// One PrintDesk per data folder. The instance that has the folder names itself in `instance.json` (0600, in
// the 0700 folder): the desktop app, which also holds Electron's own single-instance lock, or browser mode,
// with the loopback address and secret a second launch uses to hand its files over. The CLI reads it to say
// that the app is running beside it. A file whose process is gone is left by a crash and taken over.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createPrivateFileOnce, writePrivateFile } from '../private-files.ts';

export const INSTANCE_FILE = 'instance.json';

export const InstanceInfo = z.object({
  pid: z.number().int().positive(),
  mode: z.enum(['electron', 'browser']),
  startedAt: z.string(),
  /** written once browser mode's server listens: where a second launch hands over */
  origin: z.string().optional(),
  handoffSecret: z.string().optional(),
  /** tells this claim's file from a later one, so a release never removes another instance's */
  claimId: z.string(),
});
export type InstanceInfo = z.infer<typeof InstanceInfo>;

export interface InstanceClaim {
  info(): InstanceInfo;
  /** Adds what a second launch needs once it is known (browser mode's address). */
  update(change: Pick<InstanceInfo, 'origin' | 'handoffSecret'>): void;
  /** Gives the folder up, unless another instance has taken it meanwhile. */
  release(): void;
}

export type ClaimResult = { claimed: true; claim: InstanceClaim } | { claimed: false; running: InstanceInfo };

export interface ClaimOptions {
  /** Instances of this mode are taken over even when their process lives (the caller has a lock of its own for them). */
  supersedes?: InstanceInfo['mode'];
}

export function instanceFile(userDataDir: string): string {
  return path.join(userDataDir, INSTANCE_FILE);
}

/** Claims the data folder for this process, or names the instance that has it. */
export function claimInstance(userDataDir: string, mode: InstanceInfo['mode'], options: ClaimOptions = {}): ClaimResult {
  const file = instanceFile(userDataDir);
  const info: InstanceInfo = { pid: process.pid, mode, startedAt: new Date().toISOString(), claimId: randomBytes(8).toString('hex') };
  // A stale file is removed and the claim tried again; a second time only, so two launches never loop.
  for (let attempt = 0; attempt < 3; attempt++) {
    if (createPrivateFileOnce(file, JSON.stringify(info))) return { claimed: true, claim: claimOf(file, info) };
    const running = readInstance(file);
    if (running && isAlive(running.pid) && running.mode !== options.supersedes) return { claimed: false, running };
    removeIfSame(file, running);
  }
  throw new Error(`${file} keeps coming back: another PrintDesk is starting on this data folder. Try again in a moment.`);
}

/** The instance running on this data folder, if one is. */
export function runningInstance(userDataDir: string): InstanceInfo | null {
  const running = readInstance(instanceFile(userDataDir));
  return running && isAlive(running.pid) ? running : null;
}

/** Forgets a running instance that does not answer (its address refuses): its process number was reused. */
export function forgetInstance(userDataDir: string, stale: InstanceInfo): void {
  removeIfSame(instanceFile(userDataDir), stale);
}

function claimOf(file: string, info: InstanceInfo): InstanceClaim {
  let current = info;
  const ours = () => readInstance(file)?.claimId === info.claimId;
  return {
    info: () => current,
    update(change) {
      current = { ...current, ...change };
      if (!ours()) return;
      // Written beside and renamed over it: a reader sees the old or the new whole.
      const temp = `${file}.${info.claimId}.tmp`;
      writePrivateFile(temp, JSON.stringify(current));
      fs.renameSync(temp, file);
    },
    release() {
      if (ours()) fs.rmSync(file, { force: true });
    },
  };
}

function readInstance(file: string): InstanceInfo | null {
  try {
    return InstanceInfo.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch {
    return null;
  }
}

/** Removes the file only if it still says what was read (or was unreadable): a newer claim stays. */
function removeIfSame(file: string, seen: InstanceInfo | null): void {
  const now = readInstance(file);
  if (now?.claimId === seen?.claimId) fs.rmSync(file, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it lives, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
