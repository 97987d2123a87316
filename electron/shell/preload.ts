// Exposes window.printdesk, built from the contract, and nothing else: the renderer cannot name a
// channel the contract does not declare, and never sees ipcRenderer itself.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import { createPrintdeskApi, type Transport } from '../contract/bridge-api.ts';

const transport: Transport = {
  invoke: (channel, input) => ipcRenderer.invoke(channel, input),
  subscribe(event, listener) {
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(event, forward);
    return () => void ipcRenderer.off(event, forward);
  },
  // A File with a path is one the user dropped or picked: the host is told the page may name it.
  async pathForFile(file) {
    const path = webUtils.getPathForFile(file);
    if (path) await ipcRenderer.invoke(PRINTDESK_GRANT_PATH_CHANNEL, path);
    return path;
  },
};

contextBridge.exposeInMainWorld('printdesk', createPrintdeskApi(transport, PRINTDESK_API_NAMES));
