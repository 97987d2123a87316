// A recording stand-in for the `electron` module: enough of its surface for electron/shell/main.ts and
// electron-store to run in plain Node, with every call kept for the test to inspect.
import { EventEmitter } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Listener = (...args: unknown[]) => unknown;

export const record = {
  userDataDir: mkdtempSync(join(tmpdir(), 'printdesk-main-')),
  appRoot: join(import.meta.dirname, '..', '..'),
  singleInstanceLock: true,
  /** what the launch handed to requestSingleInstanceLock for the instance that has the lock */
  lockData: undefined as unknown,
  calls: [] as string[],
  appListeners: new Map<string, Listener[]>(),
  windows: [] as FakeWindow[],
  handlers: new Map<string, Listener>(),
  ipcOn: new Map<string, Listener[]>(),
  menus: [] as unknown[],
  privilegedSchemes: [] as Array<{ scheme: string; privileges: Record<string, boolean> }>,
  protocols: new Map<string, (request: Request) => Promise<Response>>(),
};

class FakeWebContents extends EventEmitter {
  windowOpenHandler: Listener | null = null;
  permissionHandler: Listener | null = null;
  permissionCheckHandler: Listener | null = null;
  devicePermissionHandler: Listener | null = null;
  sent: Array<[string, unknown]> = [];
  mainFrame = { url: '', name: 'main' };
  session = {
    setPermissionRequestHandler: (handler: Listener) => void (this.permissionHandler = handler),
    setPermissionCheckHandler: (handler: Listener) => void (this.permissionCheckHandler = handler),
    setDevicePermissionHandler: (handler: Listener) => void (this.devicePermissionHandler = handler),
  };
  setWindowOpenHandler(handler: Listener) {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown) {
    this.sent.push([channel, payload]);
  }
}

export class FakeWindow extends EventEmitter {
  options: Record<string, unknown>;
  webContents = new FakeWebContents();
  loaded: string | null = null;
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    record.windows.push(this);
  }
  async loadURL(url: string) {
    this.loaded = url;
    this.webContents.mainFrame.url = url;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  focus() {
    record.calls.push('window.focus');
  }
  show() {}
}

export const app = {
  requestSingleInstanceLock: (additionalData?: unknown) => {
    record.calls.push('requestSingleInstanceLock');
    record.lockData = additionalData;
    return record.singleInstanceLock;
  },
  exit: (code = 0) => void record.calls.push(`exit ${code}`),
  enableSandbox: () => void record.calls.push('enableSandbox'),
  quit: () => void record.calls.push('quit'),
  on(event: string, listener: Listener) {
    record.appListeners.set(event, [...(record.appListeners.get(event) ?? []), listener]);
    return app;
  },
  whenReady: () => Promise.resolve(),
  getPath: (name: string) => (name === 'userData' ? record.userDataDir : join(record.userDataDir, name)),
  getAppPath: () => record.appRoot,
  getVersion: () => '0.0.0-test',
  getName: () => 'PrintDesk',
  /** As a packaged app: what users run. */
  isPackaged: true,
};

export const ipcMain = {
  handle(channel: string, handler: Listener) {
    if (record.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    record.handlers.set(channel, handler);
  },
  on(channel: string, listener: Listener) {
    record.ipcOn.set(channel, [...(record.ipcOn.get(channel) ?? []), listener]);
  },
  removeAllListeners(channel: string) {
    record.ipcOn.delete(channel);
  },
};

export const protocol = {
  registerSchemesAsPrivileged(schemes: typeof record.privilegedSchemes) {
    record.calls.push('registerSchemesAsPrivileged');
    record.privilegedSchemes.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response>) {
    record.protocols.set(scheme, handler);
  },
};

export const Menu = {
  buildFromTemplate: (template: unknown) => ({ template }),
  setApplicationMenu: (menu: unknown) => void record.menus.push(menu),
};

export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (plain: string) => Buffer.from([...Buffer.from(plain)].map((b) => b ^ 0x5a)),
  decryptString: (data: Buffer) => Buffer.from([...data].map((b) => b ^ 0x5a)).toString(),
};

export const shell = { openPath: async () => '' };
export const dialog = { showOpenDialog: async () => ({ canceled: true, filePaths: [] }) };

export class Notification {
  static isSupported = () => true;
  options: unknown;
  constructor(options: unknown) {
    this.options = options;
  }
  show() {
    record.calls.push('notification.show');
  }
}
export const BrowserWindow = FakeWindow;

export default { app, dialog, ipcMain, Menu, Notification, protocol, safeStorage, shell, BrowserWindow };
