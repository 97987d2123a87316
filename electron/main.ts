// Lifecycle only: the single-instance lock, the window, the menu, and the host wired to ipcMain.
import { app, BrowserWindow, ipcMain, Menu, Notification, safeStorage } from 'electron';
import ElectronStore from 'electron-store';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bootHost, type Booted } from './boot.ts';
import { registerIpc } from './ipc.ts';
import { buildMenu } from './menu.ts';
import { createSafeStorageVault } from './session/token-vault.ts';
import { appPaths, createMainWindow } from './window.ts';

let mainWindow: BrowserWindow | null = null;
let booted: Booted | null = null;

function showWindow() {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

export async function startApp(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.enableSandbox();
  app.on('second-instance', showWindow);
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => void booted?.close());

  await app.whenReady();
  const userDataDir = app.getPath('userData');
  const store = new ElectronStore({ name: 'config' });
  // electron-store offers its data to renderers over a sync IPC channel of its own; ours never
  // uses it, and no channel outside the contract may exist.
  ipcMain.removeAllListeners('electron-store-get-data');
  booted = await bootHost({
    mode: 'electron',
    version: app.getVersion(),
    userDataDir,
    store,
    vault: createSafeStorageVault(safeStorage, join(userDataDir, 'session.bin')),
    notifier: {
      notify: (title, body) => {
        if (Notification.isSupported()) new Notification({ title, body }).show();
      },
    },
  });

  const paths = appPaths(app.getAppPath());
  registerIpc(ipcMain, booted.host, () => mainWindow, pathToFileURL(paths.rendererIndex).href);
  Menu.setApplicationMenu(buildMenu(Menu, app.getName()));
  mainWindow = createMainWindow(BrowserWindow, paths);
  mainWindow.on('closed', () => (mainWindow = null));
}

void startApp();
