// `npm start`: build if needed, then the desktop app where Electron's binary is (or can be
// fetched), and otherwise the same app in browser mode. Never waits long on a download.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

const forceBrowser = process.argv.includes('--browser') || process.env.PRINTDESK_BROWSER_MODE === '1';
const binary = forceBrowser ? null : (electronBinary() ?? (canShowWindows() ? tryDownloadElectron() : null));

if (binary && canShowWindows()) {
  const child = spawn(binary, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const why = forceBrowser
    ? 'browser mode was asked for'
    : !binary
      ? 'the Electron binary is not installed here and could not be downloaded'
      : 'there is no display for a window';
  console.log(`PrintDesk: ${why}, so it runs in browser mode.`);
  const { startBrowserMode } = await import('../electron/browser-main.ts');
  const portArg = process.argv.find((arg) => arg.startsWith('--port='));
  const running = await startBrowserMode({ openBrowser: true, port: portArg ? Number(portArg.slice(7)) : undefined });
  console.log(`PrintDesk is running at ${running.server.origin}`);
  console.log(`Open ${running.launchFile} in a browser: it forwards with this launch’s secret, and only you can read it. Press Ctrl+C to stop.`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
