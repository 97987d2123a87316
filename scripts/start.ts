// `npm start`: build if needed, then the desktop app where Electron's binary is (or can be
// fetched), and otherwise the same app in browser mode. Never waits long on a download.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openedPaths } from '../electron/services/opened-files.ts';
import { restrictUmask } from '../electron/services/private-files.ts';
import { buildAll, isBuildCurrent } from './build.ts';

const root = join(import.meta.dirname, '..');
const electronDir = join(root, 'node_modules', 'electron');
const DOWNLOAD_TIMEOUT_MS = 20_000;

function electronBinary(): string | null {
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

function tryDownloadElectron(): string | null {
  const installer = join(electronDir, 'install.js');
  if (!existsSync(installer)) return null;
  const result = spawnSync(process.execPath, [installer], { stdio: 'ignore', timeout: DOWNLOAD_TIMEOUT_MS });
  return result.status === 0 ? electronBinary() : null;
}

function canShowWindows(): boolean {
  return process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

if (!(await isBuildCurrent())) {
  console.log('Building PrintDesk…');
  await buildAll();
}

// What the app writes is this user's alone; Electron inherits it too (each file also gets its mode where it is made).
restrictUmask();
const forceBrowser = process.argv.includes('--browser') || process.env.PRINTDESK_BROWSER_MODE === '1';
const binary = forceBrowser ? null : (electronBinary() ?? (canShowWindows() ? tryDownloadElectron() : null));

// npm runs this in the project's folder; files named on the command line are the launching shell's.
const files = openedPaths(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());

if (binary && canShowWindows()) {
  const switches = process.argv.slice(2).filter((arg) => arg.startsWith('-'));
  const child = spawn(binary, [root, ...switches, ...files], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const why = forceBrowser
    ? 'browser mode was asked for'
    : !binary
      ? 'the Electron binary is not installed here and could not be downloaded'
      : 'there is no display for a window';
  console.log(`PrintDesk: ${why}, so it runs in browser mode.`);
  const { AlreadyRunning, startBrowserMode } = await import('../electron/browser/main.ts');
  const portArg = process.argv.find((arg) => arg.startsWith('--port='));
  const running = await startBrowserMode({ openBrowser: true, port: portArg ? Number(portArg.slice(7)) : undefined, files, sourceMaps: process.argv.includes('--source-maps') }).catch((error: unknown) => {
    // Another PrintDesk has this data folder: the files went to it, and this launch is done.
    if (!(error instanceof AlreadyRunning)) throw error;
    console.log(error.message);
    process.exit(error.launch.kind === 'desktop-running' ? 1 : 0);
  });
  console.log(`PrintDesk is running at ${running.server.origin}`);
  console.log(`Open ${running.launchFile} in a browser: it forwards with this launch’s secret, and only you can read it. Press Ctrl+C to stop.`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
