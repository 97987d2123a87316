import type { FileDialog } from './handlers/library.ts';
import { createHost, type Host, type HostDeps, type Notifier } from './host.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server.ts';
import { databasePath, modelCacheDir, sandboxDataDir } from './paths.ts';
import { makePrivateDir } from './private-files.ts';
import type { TokenVault } from './session/token-vault.ts';
import { openDatabase, type Db } from './storage/database.ts';
import type { KeyValueStore } from './storage/preferences.ts';
import { openPostgresStore, type PostgresStore } from './storage/postgres-sql.ts';

export interface BootOptions {
  mode: HostDeps['mode'];
  version: string;
  userDataDir: string;
  store: KeyValueStore;
  vault: TokenVault;
  /** start the embedded sandbox (default true) */
  sandbox?: boolean;
  /** overrides for the embedded sandbox (tests shorten token lifetimes, pin ports) */
  sandboxOptions?: Partial<SandboxOptions>;
  timeoutMs?: number;
  notifier?: Notifier;
  dialog?: FileDialog;
  /** the data folder's database, already open (the CLI checks a file against it before starting anything) */
  db?: Db;
  signal?: HostDeps['signal'];
  uploads?: HostDeps['uploads'];
  /**
   * A team's store (`postgres://…`): drafts, the outbox and batches shared with the shop's other
   * workstations. By default PRINTDESK_STORE; unset, this computer's database (docs/storage.md).
   */
  teamStore?: string;
  /** see HostDeps.leaseMs */
  leaseMs?: number;
}

export interface Booted {
  host: Host;
  sandbox: Sandbox | null;
  /** The host stopped (see its dispose), the database still open to read what it wrote; close() after. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** The wiring every front door shares: embedded sandbox first, then the host pointed at it. */
export async function bootHost(options: BootOptions): Promise<Booted> {
  // Before anything is written in it: the folder and everything in it are this user's alone.
  makePrivateDir(options.userDataDir);
  const sandbox = options.sandbox === false ? null : await startSandbox({ dataDir: sandboxDataDir(options.userDataDir), quiet: true, ...options.sandboxOptions });
  const db = options.db ?? openDatabase(databasePath(options.userDataDir));
  const teamUrl = options.teamStore ?? (process.env.PRINTDESK_STORE || undefined);
  let team: PostgresStore | null = null;
  try {
    team = teamUrl ? await openPostgresStore(teamUrl) : null;
  } catch (error) {
    await sandbox?.close();
    if (!options.db) db.close();
    throw error;
  }
  const host = createHost({
    db,
    sharedStore: team ?? undefined,
    notifier: options.notifier,
    dialog: options.dialog,
    mode: options.mode,
    version: options.version,
    platform: process.platform,
    store: options.store,
    vault: options.vault,
    sandbox: sandbox ? { baseUrl: sandbox.baseUrl, demoAccount: sandbox.demoAccount, running: sandbox.running } : null,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    uploads: options.uploads,
    modelCacheDir: modelCacheDir(options.userDataDir),
    leaseMs: options.leaseMs,
  });
  await host.ready;
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= host.dispose());
  return {
    host,
    sandbox,
    stop,
    close: async () => {
      await stop();
      await sandbox?.close();
      await team?.close();
      db.close();
    },
  };
}
