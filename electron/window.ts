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

/** The one window, locked down: no Node, isolated and sandboxed, nowhere else to go. */
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
      preload: paths.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
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
