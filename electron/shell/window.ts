import type { BrowserWindow, BrowserWindowConstructorOptions, WebContents } from 'electron';
import { join } from 'node:path';
import { RENDERER_URL } from './app-protocol.ts';

export interface AppPaths {
  preload: string;
  /** The built renderer, served as app://printdesk/ (app-protocol.ts). */
  rendererDir: string;
  icon: string;
}

export function appPaths(appRoot: string): AppPaths {
  return {
    preload: join(appRoot, 'dist', 'electron', 'preload.cjs'),
    rendererDir: join(appRoot, 'dist', 'renderer'),
    icon: join(appRoot, 'build', 'icon.png'),
  };
}

export type WindowFactory = new (options: BrowserWindowConstructorOptions) => BrowserWindow;

/**
 * The one window, locked down: no Node, isolated and sandboxed, nowhere else to go. Electron's class comes
 * injected, under its own name and with its options written out here, so that Electronegativity (npm run lint)
 * reads and checks the real webPreferences.
 */
export function createMainWindow(BrowserWindow: WindowFactory, paths: AppPaths): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'PrintDesk',
    icon: paths.icon,
    backgroundColor: '#f6f7f9',
    webPreferences: {
      // Reviewed, so Electronegativity's call to review it is answered: preload.ts exposes the contract's channels and nothing else.
      preload: paths.preload, // eng-disable PRELOAD_JS_CHECK
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
      // A middle click would open a link in a new window; no link may open one.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  harden(window.webContents, RENDERER_URL);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(RENDERER_URL);
  return window;
}

function harden(contents: WebContents, allowedUrl: string) {
  contents.on('will-navigate', (event, url) => {
    if (url !== allowedUrl) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  // Checks as well as requests: the renderer needs no camera, notifications API, HID or serial device.
  contents.session.setPermissionCheckHandler(() => false);
  contents.session.setDevicePermissionHandler(() => false);
}
