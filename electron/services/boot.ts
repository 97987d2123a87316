import type { FileDialog } from './handlers/library.ts';
import { createHost, type Host, type HostDeps, type Notifier } from './host.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/server.ts';
import { databasePath, modelCacheDir, sandboxDataDir } from './paths.ts';
import { makePrivateDir } from './private-files.ts';
import type { TokenVault } from './session/token-vault.ts';
import { openDatabase, type Db } from './storage/database.ts';
import type { KeyValueStore } from './storage/preferences.ts';
import { restartableHost } from './restartable-host.ts';
import { createMemoryBox } from './storage/secret-box.ts';
import { createStoreChoice, type PasswordBox } from './team/store-choice.ts';
import { authoritiesDir, createAuthorityFiles } from './team/authority-files.ts';
import { createStoreSwitch, openChosenStore, type StoreInUse } from './team/store-switch.ts';

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
   * workstations. By default PRINTDESK_STORE; unset, the store chosen in Settings → Team, and else this
   * computer's database (docs/storage.md). Either of the first two wins over the choice in Settings.
   */
  teamStore?: string;
  /** where a team store's password is kept: the system keychain (the desktop app), else memory only */
  teamPasswords?: PasswordBox;
  /** a team store chosen in Settings that cannot be opened stops the start (the CLI), instead of leaving the app on this computer's */
  strictStore?: boolean;
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

/** Where no keychain is given (browser mode, the CLI): the password lasts until PrintDesk stops. */
const NO_KEYCHAIN = 'There is no system keychain here, so the password is kept until PrintDesk stops: enter it again after a restart, or keep it in ~/.pgpass, which PrintDesk reads.';

/** The wiring every front door shares: embedded sandbox first, then the host pointed at it. */
export async function bootHost(options: BootOptions): Promise<Booted> {
  // Before anything is written in it: the folder and everything in it are this user's alone.
  makePrivateDir(options.userDataDir);
  const sandbox = options.sandbox === false ? null : await startSandbox({ dataDir: sandboxDataDir(options.userDataDir), quiet: true, ...options.sandboxOptions });
  const db = options.db ?? openDatabase(databasePath(options.userDataDir));
  const choice = createStoreChoice({
    store: options.store,
    passwords: options.teamPasswords ?? createMemoryBox(NO_KEYCHAIN),
    override: options.teamStore ?? (process.env.PRINTDESK_STORE || undefined),
    authorities: createAuthorityFiles(authoritiesDir(options.userDataDir)),
  });
  let inUse: StoreInUse;
  try {
    inUse = await openChosenStore(choice, options.strictStore);
  } catch (error) {
    await sandbox?.close();
    if (!options.db) db.close();
    throw error;
  }
  const team = createStoreSwitch({ choice, inUse: () => inUse, restart: (next) => restart(next) });
  const build = () =>
    createHost({
      db,
      sharedStore: inUse.team ?? undefined,
      team,
      storeProblem: inUse.problem,
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
  let services = build();
  await services.ready;
  const host = restartableHost(services);

  /** The services stopped and built again on `next`; should they fail to start there, on this computer's store. */
  async function restart(next: StoreInUse): Promise<void> {
    await host.replace(
      async () => {
        await services.dispose();
        await inUse.team?.close().catch(() => undefined);
      },
      async () => {
        inUse = next;
        services = build();
        try {
          await services.ready;
        } catch (error) {
          await services.dispose().catch(() => undefined);
          await inUse.team?.close().catch(() => undefined);
          inUse = { team: null, problem: `PrintDesk could not start on the team store: ${(error as Error).message}` };
          services = build();
        }
        return services;
      },
    );
  }

  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= host.dispose());
  return {
    host,
    sandbox,
    stop,
    close: async () => {
      await stop();
      await sandbox?.close();
      await inUse.team?.close();
      db.close();
    },
  };
}
