// Browser mode: the same host as the desktop app, with the built renderer opened in a browser.
import Conf from 'conf';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bootHost } from '../services/boot.ts';
import { startBrowserServer, type BrowserServer } from './server.ts';
import { pruneStaged } from './stage.ts';
import type { Host } from '../services/host.ts';
import { makePrivateDir, makePrivateIfPresent, PRIVATE_FILE_MODE, writePrivateFile } from '../services/private-files.ts';
import { createMemoryVault } from '../services/session/token-vault.ts';
import { defaultUserDataDir } from '../services/user-data.ts';
import { claimOrHandOver, type Launch } from '../services/instance/handoff.ts';
import type { InstanceClaim } from '../services/instance/lock.ts';
import { isModelFile } from '../../common/model-files.ts';

const root = join(import.meta.dirname, '../..');

export interface BrowserModeOptions {
  userDataDir?: string;
  port?: number;
  /** open the app in the browser (or this opener, given the launch file), at start and when a second launch finds no page open */
  openBrowser?: boolean | ((launchFile: string) => void);
  /** model files to offer for upload (what the app was started with) */
  files?: string[];
  /** serve the renderer's source maps (for debugging the page) */
  sourceMaps?: boolean;
}

export interface RunningBrowserMode {
  server: BrowserServer;
  /** A page only this user can read that forwards to the app with its secret: what the browser is given. */
  launchFile: string;
  close(): Promise<void>;
}

/** The data folder is another PrintDesk's: the files went to it (or could not), and this start ends here. */
export class AlreadyRunning extends Error {
  readonly launch: Exclude<Launch, { kind: 'claimed' }>;
  constructor(launch: Exclude<Launch, { kind: 'claimed' }>) {
    super(whyNotStarted(launch));
    this.launch = launch;
  }
}

export async function startBrowserMode(options: BrowserModeOptions = {}): Promise<RunningBrowserMode> {
  // Before anything is written in it: the folder and everything in it are this user's alone.
  const userDataDir = makePrivateDir(options.userDataDir ?? defaultUserDataDir());
  const files = options.files ?? [];
  const launch = await claimOrHandOver(userDataDir, 'browser', files);
  if (launch.kind !== 'claimed') throw new AlreadyRunning(launch);
  const { claim } = launch;
  try {
    return await start(userDataDir, options, claim);
  } catch (error) {
    claim.release();
    throw error;
  }
}

async function start(userDataDir: string, options: BrowserModeOptions, claim: InstanceClaim): Promise<RunningBrowserMode> {
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  // The same file electron-store would use, so preferences carry over between the two modes.
  const store = new Conf({ cwd: userDataDir, configName: 'config', projectName: 'printdesk', configFileMode: PRIVATE_FILE_MODE });
  makePrivateIfPresent(store.path);
  const booted = await bootHost({
    mode: 'browser',
    version,
    userDataDir,
    store,
    vault: createMemoryVault('Browser mode has no access to the system keychain, so you will sign in again after a restart.'),
  });
  const stageDir = makePrivateDir(join(userDataDir, 'staged'));
  await pruneUnused(booted.host, stageDir);
  const stopPruning = booted.host.subscribe('uploads:removed', () => void pruneUnused(booted.host, stageDir));
  const open = options.openBrowser === true ? openInBrowser : options.openBrowser || null;
  let launchFile = '';
  const handoffSecret = randomBytes(24).toString('base64url');
  const server = await startBrowserServer({
    host: booted.host,
    rendererDir: join(root, 'dist', 'renderer'),
    bridgeScript: join(root, 'dist', 'browser', 'bridge.js'),
    port: options.port,
    stageDir,
    sourceMaps: options.sourceMaps,
    handoff: {
      secret: handoffSecret,
      // A second launch on this folder: its files are offered, and the page comes forward as a browser allows
      // (the page that is open is told and takes the focus; with none open, the browser opens one).
      receive: (paths) => {
        booted.host.openFiles(paths);
        const files = paths.filter(isModelFile).length;
        if (server.pages() > 0) return { files, shown: 'page', launchFile };
        open?.(launchFile);
        return { files, shown: open ? 'browser' : 'none', launchFile };
      },
    },
  });
  launchFile = writeLaunchFile(userDataDir, server.url);
  claim.update({ origin: server.origin, handoffSecret });
  booted.host.openFiles(options.files ?? []);
  open?.(launchFile);
  return {
    server,
    launchFile,
    close: async () => {
      stopPruning();
      rmSync(launchFile, { force: true });
      await server.close();
      await booted.close();
      claim.release();
    },
  };
}

function whyNotStarted(launch: Exclude<Launch, { kind: 'claimed' }>): string {
  if (launch.kind === 'desktop-running') {
    return `PrintDesk is already open as a desktop app on this data folder (process ${launch.running.pid}). Use its window, or quit it to use browser mode.`;
  }
  const { files, shown, launchFile } = launch.answer;
  const handed = files ? `; ${files === 1 ? 'the file was' : `${files} files were`} handed to it to upload` : '';
  const where = shown === 'page' ? 'its page in your browser has them' : shown === 'browser' ? 'it opened in your browser' : `open ${launchFile} in a browser`;
  return `PrintDesk is already running on this data folder at ${launch.to.origin}${handed}: ${files || shown !== 'page' ? where : 'switch to its page in your browser'}.`;
}

/** Staged copies of dropped files that no upload item names any more (see pruneStaged). */
async function pruneUnused(host: Host, stageDir: string): Promise<void> {
  // Every account's items, not the page's list: that is empty while nobody is signed in (every start in
  // this mode) and holds only the signed-in account's, and pruning by it deleted others' pending files.
  await host.ready;
  await pruneStaged(stageDir, new Set(host.uploadPathsInUse()));
}

/**
 * The secret never goes on a command line (any local user can read another's argv in /proc): the browser
 * is handed this file, mode 0600, which forwards to the URL that carries it.
 */
function writeLaunchFile(userDataDir: string, url: string): string {
  const file = join(userDataDir, `open-printdesk-${randomBytes(6).toString('hex')}.html`);
  const target = JSON.stringify(url);
  const html = `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>PrintDesk</title><script>location.replace(${target})</script>`;
  writePrivateFile(file, html);
  return file;
}

function openInBrowser(url: string) {
  const hasDisplay = process.platform !== 'linux' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY;
  if (!hasDisplay || process.env.CI) return;
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer.exe' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}
