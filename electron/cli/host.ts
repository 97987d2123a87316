// The app's host, booted for the command line: what Electron gives the app is given here in plain Node
// (a vault in memory, preferences in memory naming the service, no dialogs, no notifications: the command
// prints what happens itself), and the command goes through the contract as the window does.
import { readFileSync } from 'node:fs';
import { HostError } from '../services/api/errors.ts';
import { bootHost, type Booted } from '../services/boot.ts';
import type { ChannelInput, ChannelName, ChannelOutput, EventName, EventPayload } from '../contract/channels.ts';
import { createMemoryVault } from '../services/session/token-vault.ts';
import type { Db } from '../services/storage/database.ts';
import { createMemoryStore } from '../services/storage/memory-store.ts';
import { createPreferences } from '../services/storage/preferences.ts';
import { preferencesPath } from '../services/paths.ts';
import { TEAM_STORE_PREFERENCE } from '../services/team/store-choice.ts';
import type { Account } from '../../sandbox/seed.ts';

export interface CliHostOptions {
  userDataDir: string;
  /** the data folder's database, open already: the host closes it with itself */
  db: Db;
  /** the service's base URL (checked); null for the embedded sandbox, which is then started */
  baseUrl: string | null;
  /** aborted at Ctrl+C: every request on its way ends at once */
  signal: AbortSignal;
  /** a team's store (PRINTDESK_STORE, `postgres://…`); else the one chosen in the app's Settings → Team, else this computer's */
  teamStore?: string;
}

export interface CliHost {
  baseUrl: string;
  /** the embedded sandbox's demo account, or null for another service */
  demoAccount: Account | null;
  /** A contract channel, checked as the window's calls are; a failure is thrown as the HostError it was. */
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): void;
  /** Stops sending and waits for what is on its way (the outbox's grace); what was written can still be read. */
  stop(): Promise<void>;
  /** Stops, then closes the sandbox and the database. */
  close(): Promise<void>;
}

/** One value of the app's preferences file, as it was written; undefined when there is none. */
function appPreference(userDataDir: string, key: string): unknown {
  try {
    return (JSON.parse(readFileSync(preferencesPath(userDataDir), 'utf8')) as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

const version = () => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export async function bootCliHost(options: CliHostOptions): Promise<CliHost> {
  // The app's choice of store (Settings → Team), read from its preferences file: this computer's programs are one
  // workstation, and a batch goes where the app's drafts are. Its password is the keychain's, which this process
  // cannot read: PGPASSWORD or ~/.pgpass stand in.
  const store = createMemoryStore({ [TEAM_STORE_PREFERENCE]: appPreference(options.userDataDir, TEAM_STORE_PREFERENCE) });
  if (options.baseUrl) createPreferences(store).setService({ kind: 'custom', baseUrl: options.baseUrl });
  const booted: Booted = await bootHost({
    mode: 'cli',
    version: version(),
    userDataDir: options.userDataDir,
    store,
    vault: createMemoryVault('The command line keeps its session in memory only.'),
    sandbox: options.baseUrl === null,
    db: options.db,
    signal: options.signal,
    uploads: false,
    teamStore: options.teamStore,
    strictStore: true,
  });
  const { host, sandbox } = booted;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: options.baseUrl ?? (sandbox as NonNullable<typeof sandbox>).baseUrl,
    demoAccount: sandbox?.demoAccount ?? null,
    async call(channel, input) {
      const result = await host.invoke(channel, input);
      if (result.ok) return result.value as ChannelOutput<typeof channel>;
      const { code, message, details, retryAfterSeconds } = result.error;
      throw new HostError(code, message, { details, retryAfterSeconds });
    },
    on: (event, listener) => void host.subscribe(event, listener),
    stop: booted.stop,
    close: () => (closing ??= booted.close()),
  };
}
