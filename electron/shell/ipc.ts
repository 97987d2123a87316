import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import { channelNames, eventNames, GRANT_PATH_CHANNEL, GrantedPath, type Result } from '../contract/channels.ts';
import type { Host } from '../services/host.ts';

/**
 * Registers a handler for every contract channel and nothing else. Each call must come from the
 * main frame of our own window showing our own page; anything else is refused before dispatch.
 */
export function registerIpc(ipcMain: IpcMain, host: Host, window: () => BrowserWindow | null, rendererUrl: string) {
  const trusted = (event: IpcMainInvokeEvent) => {
    const win = window();
    const frame = event.senderFrame;
    return !!win && !!frame && frame === win.webContents.mainFrame && frame.url.split('#')[0] === rendererUrl;
  };
  for (const channel of channelNames) {
    ipcMain.handle(channel, async (event, input: unknown): Promise<Result<unknown>> => {
      if (!trusted(event)) return { ok: false, error: { code: 'NO_PERMISSION', message: 'Untrusted sender', retryable: false } };
      return host.invoke(channel, input);
    });
  }
  ipcMain.handle(GRANT_PATH_CHANNEL, (event, path: unknown) => {
    const parsed = GrantedPath.safeParse(path);
    if (trusted(event) && parsed.success) host.grantPaths([parsed.data]);
    return null;
  });
  for (const event of eventNames) {
    host.subscribe(event, (payload) => window()?.webContents.send(event, payload));
  }
}
