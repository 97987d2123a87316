// Browser mode's stand-in for preload.ts: defines window.printdesk from the contract over the
// secret-checked WebSocket that electron/browser.ts serves. The secret arrives in the URL's
// fragment (never sent over HTTP, never a cookie), is kept for this tab only, and leaves the URL bar.
import type { EventName } from '../contract/channels.ts';
import { createPrintdeskApi, type Transport } from '../contract/bridge-api.ts';
import { fetchOffThread, readyFetcher } from './fetch-off-thread.ts';
import { decodeFrame, type ParkedBytes } from './frames.ts';

const BRIDGE_PATH = '/__printdesk/bridge';
const STAGE_PATH = '/__printdesk/stage';
const BYTES_PATH = '/__printdesk/bytes';

const SECRET_KEY = 'printdesk.bridgeSecret';

function takeSecret(): string {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('secret');
  if (fromHash) {
    sessionStorage.setItem(SECRET_KEY, fromHash);
    history.replaceState(null, '', location.pathname + location.search);
    return fromHash;
  }
  return sessionStorage.getItem(SECRET_KEY) ?? '';
}

type Incoming = { id?: number; result?: unknown; event?: string; payload?: unknown };

function createSocketTransport(secret: string): Transport {
  const pending = new Map<number, (result: unknown) => void>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let opened: Promise<WebSocket> | null = null;

  // Marked as the host's, not the service's: the notice then says PrintDesk stopped, not the service.
  const lost = (message: string) => ({ ok: false, error: { code: 'OFFLINE', message, retryable: true, details: { hostStopped: true } } });

  function connect(): Promise<WebSocket> {
    opened ??= new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://${location.host}${BRIDGE_PATH}?secret=${encodeURIComponent(secret)}`);
      // Results holding bytes come as binary frames (bridge-frames.ts).
      ws.binaryType = 'arraybuffer';
      ws.onopen = () => {
        resolve(ws);
        readyFetcher();
      };
      ws.onmessage = (message) => void arrive(message.data as string | ArrayBuffer);
      ws.onclose = () => {
        for (const settle of pending.values()) settle(lost('The PrintDesk host has stopped. Restart it with npm start.'));
        pending.clear();
        opened = null;
        reject(new Error('closed'));
      };
    });
    return opened;
  }

  /**
   * Fetches a large byte array the host left out of the frame (see browser-parking.ts), by a worker
   * (fetch-off-thread.ts): here, even a first picture's few megabytes held the page's thread 85 ms.
   */
  async function fetchParked({ token, length, place }: ParkedBytes): Promise<void> {
    const url = new URL(`${BYTES_PATH}?secret=${encodeURIComponent(secret)}&token=${encodeURIComponent(token)}`, location.href).href;
    const bytes = new Uint8Array(await fetchOffThread(url).catch(() => fetchHere(url)));
    if (bytes.byteLength !== length) throw new Error('cut short');
    place(bytes);
  }

  async function fetchHere(url: string): Promise<ArrayBuffer> {
    const response = await fetch(url, { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.arrayBuffer();
  }

  async function arrive(data: string | ArrayBuffer) {
    const parked: ParkedBytes[] = [];
    const message = decodeFrame(data, (bytes) => parked.push(bytes)) as Incoming;
    if (parked.length > 0) {
      const fetched = await Promise.all(parked.map(fetchParked)).then(() => true, () => false);
      if (!fetched) return receive({ id: message.id, result: lost('A file could not be fetched from the PrintDesk host. Try again; if it keeps failing, restart it with npm start.') });
    }
    receive(message);
  }

  function receive(message: Incoming) {
    if (typeof message.id === 'number') {
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
    } else if (message.event) {
      for (const listener of listeners.get(message.event) ?? []) listener(message.payload);
    }
  }

  return {
    async pathForFile(file) {
      const url = `${STAGE_PATH}?secret=${encodeURIComponent(secret)}&name=${encodeURIComponent(file.name)}`;
      const response = await fetch(url, { method: 'POST', body: file, headers: { 'content-type': 'application/octet-stream' } });
      if (!response.ok) return '';
      return ((await response.json()) as { path: string }).path;
    },
    async invoke(channel, input) {
      const ws = await connect().catch(() => null);
      if (!ws) return lost('Cannot reach the PrintDesk host. Is `npm start` still running? Open the address it printed.');
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        ws.send(JSON.stringify({ id, channel, input }));
      });
    },
    subscribe(event: EventName, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(listener);
      void connect().catch(() => undefined);
      return () => void listeners.get(event)?.delete(listener);
    },
  };
}

Object.defineProperty(window, 'printdesk', {
  value: createPrintdeskApi(createSocketTransport(takeSecret()), PRINTDESK_API_NAMES),
  writable: false,
  configurable: false,
});
