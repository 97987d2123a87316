// A second launch on a data folder that an instance already has: its files go to that instance, which
// comes forward, and the second launch ends. Electron's own lock does this between two desktop launches;
// this does it for browser mode, over its loopback server, with the secret kept in instance.json (0600).
import { z } from 'zod';
import { claimInstance, forgetInstance, runningInstance, type InstanceClaim, type InstanceInfo } from './lock.ts';

export const HANDOFF_PATH = '/__printdesk/handoff';
export const HANDOFF_HEADER = 'x-printdesk-handoff';

export const HandoffRequest = z.object({ paths: z.array(z.string().min(1).max(4096)).max(1000) });
export const HandoffAnswer = z.object({
  /** the model files among the paths, which the running instance offers to upload */
  files: z.number().int().nonnegative(),
  /** how it came forward: a page of it was open and was told, it opened the browser on itself, or neither could be done */
  shown: z.enum(['page', 'browser', 'none']),
  /** the page to open when `shown` is 'none' (a file only this user can read, see browser-main.ts) */
  launchFile: z.string(),
});
export type HandoffAnswer = z.infer<typeof HandoffAnswer>;

export type Launch =
  | { kind: 'claimed'; claim: InstanceClaim }
  | { kind: 'handed-over'; to: InstanceInfo; answer: HandoffAnswer }
  /** the desktop app has the folder: browser mode cannot hand over to it, and says so */
  | { kind: 'desktop-running'; running: InstanceInfo };

/** How long a second launch waits for a first one that is still starting to listen. */
const STARTING_WAIT_MS = 30_000;

/**
 * Claims the data folder for a launch of this mode, or hands `paths` to the instance that has it. The desktop
 * app passes `supersedes: 'electron'`: Electron's lock already settled that no other desktop app runs here.
 */
export async function claimOrHandOver(userDataDir: string, mode: InstanceInfo['mode'], paths: string[]): Promise<Launch> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = claimInstance(userDataDir, mode, mode === 'electron' ? { supersedes: 'electron' } : {});
    if (result.claimed) return { kind: 'claimed', claim: result.claim };
    if (result.running.mode === 'electron') return { kind: 'desktop-running', running: result.running };
    const listening = await addressOf(userDataDir, result.running);
    if (!listening) continue;
    const answer = await handOver(listening, paths);
    if (answer) return { kind: 'handed-over', to: listening, answer };
    // Its process lives but nothing of ours listens there: the number was reused after a crash.
    forgetInstance(userDataDir, listening);
  }
  throw new Error(`Another PrintDesk keeps starting and stopping on ${userDataDir}. Try again in a moment.`);
}

/** The running browser-mode instance once its server listens; null if it stopped meanwhile. */
async function addressOf(userDataDir: string, running: InstanceInfo): Promise<InstanceInfo | null> {
  const deadline = Date.now() + STARTING_WAIT_MS;
  for (let now: InstanceInfo | null = running; now?.claimId === running.claimId; now = runningInstance(userDataDir)) {
    if (now.origin && now.handoffSecret) return now;
    if (Date.now() > deadline) throw new Error(`PrintDesk (process ${running.pid}) has been starting on ${userDataDir} for over ${STARTING_WAIT_MS / 1000} s. Stop it, or wait and try again.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return null;
}

/** Sends the paths; null when nothing answers at the address (or answers as something else). */
async function handOver(to: InstanceInfo, paths: string[]): Promise<HandoffAnswer | null> {
  try {
    const response = await fetch(`${to.origin}${HANDOFF_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [HANDOFF_HEADER]: to.handoffSecret ?? '' },
      body: JSON.stringify({ paths }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) return null;
    return HandoffAnswer.parse(await response.json());
  } catch {
    return null;
  }
}
