// LISTEN/NOTIFY for the team store: how one workstation's change reaches the others. PostgreSQL delivers a
// notification to the sessions listening when it is sent, so the listening session is one connection of its
// own, outside the pool, kept open and, when it drops, opened again with every channel listened to again.
import pg from 'pg';
import { retryDelayMs } from '../api/backoff.ts';

export type Unlisten = () => Promise<void>;

export interface Notifications {
  /**
   * Calls `onPayload` with each payload sent on `channel` from now on. After the connection dropped and came
   * back, `onMissed` is called: what was sent in between is lost, so the listener reads afresh what it shows.
   */
  listen(channel: string, onPayload: (payload: string) => void, onMissed?: () => void): Promise<Unlisten>;
  close(): Promise<void>;
}

interface Listener {
  onPayload: (payload: string) => void;
  onMissed?: () => void;
}

/** Listens over its own connection made from `config`. */
export function postgresNotifications(config: pg.ClientConfig): Notifications {
  const channels = new Map<string, Set<Listener>>();
  let client: Promise<pg.Client> | null = null;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const deliver = (message: pg.Notification) => {
    for (const listener of channels.get(message.channel) ?? []) {
      // One listener's failure is neither the others' nor the connection's (pg calls this from its reader).
      try {
        listener.onPayload(message.payload ?? '');
      } catch (error) {
        process.emitWarning(error as Error);
      }
    }
  };

  async function connect(): Promise<pg.Client> {
    const connection = new pg.Client({ ...config, application_name: 'printdesk-listen' });
    connection.on('notification', deliver);
    // A dropped connection says so by 'error', 'end' or both: the first one starts over, once.
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      connection.removeAllListeners('notification');
      connection.end().catch(() => undefined);
      if (!closed) reconnect(0);
    };
    connection.on('error', onLost);
    try {
      await connection.connect();
      for (const channel of channels.keys()) await connection.query(`LISTEN ${connection.escapeIdentifier(channel)}`);
    } catch (error) {
      lost = true;
      connection.removeAllListeners('notification');
      await connection.end().catch(() => undefined);
      throw error;
    }
    connection.on('end', onLost);
    return connection;
  }

  function reconnect(attempt: number) {
    client = null;
    retry = setTimeout(() => {
      retry = undefined;
      if (closed) return;
      const next = connect();
      client = next;
      next.then(
        () => {
          for (const listeners of channels.values()) for (const listener of listeners) listener.onMissed?.();
        },
        () => {
          if (!closed && client === next) reconnect(attempt + 1);
        },
      );
    }, retryDelayMs(attempt, undefined, { baseMs: 200, capMs: 10_000 }));
    retry.unref();
  }

  return {
    async listen(channel, onPayload, onMissed) {
      if (closed) throw new Error('The team store is closed.');
      const listener: Listener = { onPayload, onMissed };
      let listeners = channels.get(channel);
      const first = !listeners;
      if (!listeners) channels.set(channel, (listeners = new Set()));
      listeners.add(listener);
      try {
        // A connection being made listens to every channel in the map when it is up, this one included.
        if (!client && !retry) {
          const attempt = connect();
          client = attempt;
          // Unreachable now: the next listen() tries again rather than being told the same.
          attempt.catch(() => {
            if (client === attempt) client = null;
          });
        }
        const connection = await client;
        if (first && connection) await connection.query(`LISTEN ${connection.escapeIdentifier(channel)}`);
      } catch (error) {
        listeners.delete(listener);
        if (listeners.size === 0) channels.delete(channel);
        throw error;
      }
      return async () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        channels.delete(channel);
        const connection = await client?.catch(() => null);
        if (connection && !closed) await connection.query(`UNLISTEN ${connection.escapeIdentifier(channel)}`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const connection = await client?.catch(() => null);
      client = null;
      channels.clear();
      await connection?.end().catch(() => undefined);
    },
  };
}
