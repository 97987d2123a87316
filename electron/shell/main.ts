// Lifecycle only: the single-instance lock, the window, the menu, and the host wired to ipcMain.
import { app, BrowserWindow, dialog, ipcMain, Menu, Notification, protocol, safeStorage } from 'electron';
import ElectronStore from 'electron-store';
import { join } from 'node:path';
import { MODEL_EXTENSIONS } from '../../common/model-files.ts';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, RENDERER_URL, serveRenderer } from './app-protocol.ts';
import { bootHost, type Booted } from '../services/boot.ts';
import { debuggingSwitches } from './debug-switches.ts';
import { claimOrHandOver, HandoffRequest } from '../services/instance/handoff.ts';
import { registerIpc } from './ipc.ts';
import { makePrivateDir, makePrivateIfPresent, PRIVATE_FILE_MODE, restrictUmask } from '../services/private-files.ts';
import { buildMenu } from './menu.ts';
import { openedPaths } from '../services/opened-files.ts';
import { createSafeStorageVault } from '../services/session/token-vault.ts';
import { createSafeStorageBox } from '../services/storage/secret-box.ts';
import { StorePassword, TEAM_PASSWORD_NO_KEYRING } from '../services/team/store-choice.ts';
import { appPaths, createMainWindow } from './window.ts';

let mainWindow: BrowserWindow | null = null;
let booted: Booted | null = null;

function showWindow() {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

export async function startApp(): Promise<void> {
  // Before anything else: a packaged app never runs open to a debugger (see debug-switches.ts).
  const debugging = app.isPackaged ? debuggingSwitches(process.argv.slice(1)) : [];
  if (debugging.length) {
    process.stderr.write(`PrintDesk does not start with ${debugging.join(' ')}: a debugger could read its session and drive its window.\n`);
    app.exit(1);
    return;
  }
  restrictUmask();
  // Before Chromium or we write anything in it (the single-instance lock is the first).
  const userDataDir = makePrivateDir(app.getPath('userData'));
  // Files arrive by "Open with", on the command line, or from a second launch that hands over to us.
  const pending = openedPaths(process.argv.slice(1), process.cwd());
  // A second launch ends here; Electron hands its paths (resolved where it was started) to the first.
  if (!app.requestSingleInstanceLock({ paths: pending })) {
    app.quit();
    return;
  }
  app.enableSandbox();
  // Before ready, or the scheme is not a standard, secure origin (relative URLs, fetch, module workers).
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES }]);
  const openFiles = (paths: string[]) => (booted ? booted.host.openFiles(paths) : pending.push(...paths));
  app.on('second-instance', (_event, argv, workingDirectory, additionalData) => {
    showWindow();
    const handed = HandoffRequest.safeParse(additionalData);
    openFiles(handed.success ? handed.data.paths : openedPaths(argv.slice(1), workingDirectory));
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    openFiles([path]);
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  app.on('window-all-closed', () => app.quit());
  // Quitting waits for the host to close: orders on their way are answered and written down before the
  // database closes under them. Then the quit goes ahead.
  let closed = false;
  app.on('before-quit', (event) => {
    if (!booted || closed) return;
    event.preventDefault();
    const closing = booted;
    booted = null;
    void closing.close().finally(() => {
      closed = true;
      app.quit();
    });
  });

  // Browser mode may have this data folder: the files go to it and this launch ends, as between two windows.
  const launch = await claimOrHandOver(userDataDir, 'electron', pending);
  if (launch.kind !== 'claimed') {
    app.quit();
    return;
  }
  app.on('will-quit', () => launch.claim.release());

  await app.whenReady();
  const store = new ElectronStore({ name: 'config', configFileMode: PRIVATE_FILE_MODE });
  makePrivateIfPresent(store.path);
  // electron-store offers its data to renderers over a sync IPC channel of its own; ours never
  // uses it, and no channel outside the contract may exist.
  ipcMain.removeAllListeners('electron-store-get-data');
  booted = await bootHost({
    mode: 'electron',
    version: app.getVersion(),
    userDataDir,
    store,
    vault: createSafeStorageVault(safeStorage, join(userDataDir, 'session.bin')),
    teamPasswords: createSafeStorageBox(StorePassword, safeStorage, join(userDataDir, 'team-store.bin'), TEAM_PASSWORD_NO_KEYRING),
    dialog: {
      pickModels: async ({ folders }) => {
        const options = {
          title: folders ? 'Upload a folder of models' : 'Upload models',
          properties: folders ? (['openDirectory', 'multiSelections'] as const) : (['openFile', 'multiSelections'] as const),
          filters: folders ? [] : [{ name: '3D models', extensions: [...MODEL_EXTENSIONS] }],
        };
        const result = mainWindow ? await dialog.showOpenDialog(mainWindow, { ...options, properties: [...options.properties] }) : await dialog.showOpenDialog({ ...options, properties: [...options.properties] });
        return result.canceled ? null : result.filePaths;
      },
    },
    notifier: {
      notify: (title, body) => {
        if (Notification.isSupported()) new Notification({ title, body }).show();
      },
    },
  });

  const paths = appPaths(app.getAppPath());
  protocol.handle(APP_SCHEME, serveRenderer(paths.rendererDir));
  registerIpc(ipcMain, booted.host, () => mainWindow, RENDERER_URL);
  Menu.setApplicationMenu(buildMenu(Menu, app.getName(), !app.isPackaged));
  mainWindow = createMainWindow(BrowserWindow, paths);
  mainWindow.on('closed', () => (mainWindow = null));
  // Once the page listens: the files the app was opened with.
  mainWindow.webContents.once('did-finish-load', () => booted?.host.openFiles(pending.splice(0)));
}

void startApp();
