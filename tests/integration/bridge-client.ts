// A page's side of browser mode's bridge, for tests: calls contract channels over the secret-checked WebSocket.
import { WebSocket } from 'ws';
import { BRIDGE_PATH } from '../../electron/browser/server.ts';

export async function bridge(origin: string, secret: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${new URL(origin).port}${BRIDGE_PATH}?secret=${secret}`, { origin });
  await new Promise((r) => ws.on('open', r));
  let id = 0;
  type Reply = { ok?: boolean; value: unknown };
  const waiting = new Map<number, (reply: Reply) => void>();
  const events: Array<{ event: string; payload: unknown }> = [];
  ws.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result: Reply; event?: string; payload?: unknown };
    if (message.id) waiting.get(message.id)?.(message.result);
    else if (message.event) events.push({ event: message.event, payload: message.payload });
  });
  const call = (channel: string, input?: unknown) =>
    new Promise<Reply>((resolve) => {
      const n = ++id;
      waiting.set(n, resolve);
      ws.send(JSON.stringify({ id: n, channel, input }));
    });
  return { call, events, close: () => ws.close() };
}
