// Builds window.printdesk from the contract's channel names over any transport (Electron IPC,
// the browser-mode WebSocket, a test binding). Imports only types, so the preloads that bundle it
// stay small: their name lists are injected at build time from contract.ts.
import type { ChannelInput, ChannelName, ChannelOutput, Contract, EventName, EventPayload, Namespace, Result } from './contract.ts';

/** The API the renderer sees as window.printdesk, whatever the transport. */
export type PrintdeskApi = {
  [N in Namespace]: {
    [M in keyof Contract[N] & string]: (
      input?: ChannelInput<`${N}:${M}` & ChannelName>,
    ) => Promise<Result<ChannelOutput<`${N}:${M}` & ChannelName>>>;
  };
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

export interface Transport {
  invoke(channel: ChannelName, input: unknown): Promise<unknown>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
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
  return Object.freeze(api) as PrintdeskApi;
}
