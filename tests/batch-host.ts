// The services batch ordering needs, wired by hand around one API client, for tests and the bench that
// drive them directly (a worker killed mid-batch, a rate-limited run). The app and the CLI go through
// the host (electron/services/host.ts), which wires the same pieces.
import { createApiClient, type ApiClient } from '../electron/services/api/client.ts';
import { createModels } from '../electron/services/library/models.ts';
import { createOrders, type OrdersDeps } from '../electron/services/orders/index.ts';
import { accountKey, createSession } from '../electron/services/session/session.ts';
import { createMemoryVault, type TokenVault } from '../electron/services/session/token-vault.ts';
import type { Db } from '../electron/services/storage/database.ts';
import { createBatches } from '../electron/services/batch/index.ts';
import { modelNameLookup } from '../electron/services/batch/model-names.ts';
import type { BatchChecking, BatchProgress } from '../electron/services/batch/schemas.ts';

export interface BatchHostOptions {
  db: Db;
  baseUrl: string;
  /**
   * The service part of the account key drafts and batches are filed under (default: baseUrl).
   * The embedded sandbox listens on a new port each start, so the CLI passes a stable name.
   */
  serviceKey?: string;
  vault?: TokenVault;
  timeoutMs?: number;
  maxRetries?: number;
  tickMs?: number;
  /** the batches' clock (a test runs a long wait faster than the wall clock) */
  now?: () => number;
  onProgress?: (progress: BatchProgress) => void;
  onChecking?: (checking: BatchChecking) => void;
  onReachability?: (reachable: boolean) => void;
  /** a team's store and who writes to it (team mode): drafts, the outbox and batches there */
  team?: Partial<Pick<OrdersDeps, 'store' | 'identity' | 'onDraft' | 'onRemoved' | 'onReread'>>;
}

export type BatchHost = Awaited<ReturnType<typeof createBatchHost>>;

export async function createBatchHost(options: BatchHostOptions) {
  const vault = options.vault ?? createMemoryVault('The command line keeps its session in memory only.');
  const session = createSession({ vault, client: () => client, onChange: () => undefined });
  // Ctrl+C: what is on its way ends at once, and the orders it carried go again, under their reference, next run.
  const stopping = new AbortController();
  let unreachable = false;
  const client: ApiClient = createApiClient({
    baseUrl: options.baseUrl,
    tokens: session.tokens,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    signal: stopping.signal,
    onReachability: (reachable) => {
      // The service answers again: what waited for it goes now, as in the app (host.ts's connectivity).
      if (reachable && unreachable) void orders.resumeAfterReconnect();
      unreachable = !reachable;
      options.onReachability?.(reachable);
    },
  });
  const account = () => accountKey(session.state(), options.serviceKey ?? options.baseUrl);
  const orders = await createOrders({ db: options.db, client: () => client, account, onDraft: () => undefined, onPlaced: () => undefined, ...options.team });
  const models = createModels(() => client);
  const batches = await createBatches({
    orders,
    client: () => client,
    account,
    resolveModelName: modelNameLookup((query) => models.list(query)),
    onProgress: options.onProgress,
    onChecking: options.onChecking,
    tickMs: options.tickMs,
    now: options.now,
  });

  return {
    client,
    session,
    orders,
    batches,
    signIn: (email: string, password: string) => session.signIn(email, password),
    /** Sends what an earlier run left queued or half-sent, and watches unfinished batches. */
    async start() {
      // The batches first: a paused batch's orders are held before the outbox sends anything.
      await batches.start();
      await orders.start();
    },
    /** Ends every request on its way now (they may have reached the service: their references settle it). */
    abort: () => stopping.abort(),
    /** Resolves once the orders on their way are answered and written down (see the outbox's stop). */
    async stop() {
      await batches.stop();
      await orders.stop();
    },
  };
}
