// Browser mode: the same host as the desktop app, with the built renderer opened in a browser.
import Conf from 'conf';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootHost } from './boot.ts';
import { startBrowserServer, type BrowserServer } from './browser.ts';
import { createMemoryVault } from './session/token-vault.ts';
import { defaultUserDataDir } from './user-data.ts';

const root = join(import.meta.dirname, '..');

export interface BrowserModeOptions {
  userDataDir?: string;
  port?: number;
  openBrowser?: boolean;
}

export interface RunningBrowserMode {
  server: BrowserServer;
  close(): Promise<void>;
}

export async function startBrowserMode(options: BrowserModeOptions = {}): Promise<RunningBrowserMode> {
  const userDataDir = options.userDataDir ?? defaultUserDataDir();
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const booted = await bootHost({
    mode: 'browser',
    version,
    userDataDir,
    // The same file electron-store would use, so preferences carry over between the two modes.
    store: new Conf({ cwd: userDataDir, configName: 'config', projectName: 'printdesk' }),
    vault: createMemoryVault('Browser mode has no access to the system keychain, so you will sign in again after a restart.'),
  });
  const server = await startBrowserServer({
    host: booted.host,
    rendererDir: join(root, 'dist', 'renderer'),
    bridgeScript: join(root, 'dist', 'browser', 'bridge.js'),
    port: options.port,
    stageDir: join(userDataDir, 'staged'),
  });
  if (options.openBrowser) openInBrowser(server.url);
  return {
    server,
    close: async () => {
      await server.close();
      await booted.close();
    },
  };
}

function openInBrowser(url: string) {
  const hasDisplay = process.platform !== 'linux' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY;
  if (!hasDisplay || process.env.CI) return;
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer.exe' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}
