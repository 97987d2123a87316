// Builds window.printdesk from the contract's channel names over any transport (Electron IPC,
// the browser-mode WebSocket, a test binding). Imports only types, so the preloads that bundle it
// stay small: their name lists are injected at build time from contract.ts.
import type { ChannelInput, ChannelName, ChannelOutput, Contract, EventName, EventPayload, Namespace, Result } from './channels.ts';

/** The API the renderer sees as window.printdesk, whatever the transport. */
export type PrintdeskApi = {
  [N in Namespace]: {
    [M in keyof Contract[N] & string]: (
      input?: ChannelInput<`${N}:${M}` & ChannelName>,
    ) => Promise<Result<ChannelOutput<`${N}:${M}` & ChannelName>>>;
  };
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** A path the host can read for a dropped or picked file ('' when the file has none, e.g. made in the page). */
  pathForFile(file: File): Promise<string>;
};

export interface Transport {
  invoke(channel: ChannelName, input: unknown): Promise<unknown>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
  /** Electron asks webUtils; browser mode copies the file to the host over loopback first. */
  pathForFile(file: File): Promise<string>;
}

export interface ApiNames {
  channels: readonly ChannelName[];
  events: readonly EventName[];
}

export function createPrintdeskApi(transport: Transport, names: ApiNames): PrintdeskApi {
  const api: Record<string, unknown> = {};
  for (const name of names.channels) {
    const [ns, method] = name.split(':');
    const methods = (api[ns] ??= {}) as Record<string, (input?: unknown) => Promise<unknown>>;
    methods[method] = (input?: unknown) => transport.invoke(name, input);
  }
  for (const ns of Object.keys(api)) Object.freeze(api[ns]);
  api.on = (event: EventName, listener: (payload: unknown) => void) => {
    if (!names.events.includes(event)) throw new Error(`Unknown event: ${String(event)}`);
    return transport.subscribe(event, listener);
  };
  api.pathForFile = (file: File) => transport.pathForFile(file);
  return Object.freeze(api) as PrintdeskApi;
}
