// Settings → Team's part of the host: testing a connection, opening a team store, and putting the services on
// another store. Every front door gets it from boot.ts, which owns the store in use and rebuilds the services
// on the next one (restartable-host.ts): plain Node, so the Electron shell only hands over its keychain.
import { HostError } from '../api/errors.ts';
import { MIGRATIONS as BATCH_MIGRATIONS } from '../batch/migrations.ts';
import { ORDERS_MIGRATIONS } from '../orders/migrations.ts';
import type { ConnectionTest, StoreChoiceInput, TeamConnectionInput, TeamState } from '../../contract/schemas/team.ts';
import { openPostgresStore, TeamStoreError, type PostgresStore } from '../storage/postgres-sql.ts';
import { migrateSql } from '../storage/sql.ts';
import { testConnection } from './connection-test.ts';
import type { StoreChoice } from './store-choice.ts';

export interface StoreSwitch {
  state(): Promise<TeamState>;
  test(input: TeamConnectionInput): Promise<ConnectionTest>;
  /** `work` on the team store the form names, or on the one in use; one opened for it is closed after. */
  withTeamStore<T>(input: TeamConnectionInput | undefined, work: (store: PostgresStore) => Promise<T>): Promise<T>;
  /** Saves the choice and puts the services on it; resolves once they run there. */
  use(choice: StoreChoiceInput): Promise<TeamState>;
}

/** The store in use: a team's, or null for this computer's; and why a saved team store is not in use. */
export interface StoreInUse {
  team: PostgresStore | null;
  problem: string | null;
}

/** Why a team store cannot be used, as the page shows it (the form's failure words, never the password). */
function storeError(error: unknown): Error {
  if (error instanceof TeamStoreError) return new HostError('INVALID_INPUT', error.failure.message, { details: { reason: error.failure.reason } });
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Opens the team store at `url` with its tables brought up to date, so that a store the services cannot run
 * on (written by a newer PrintDesk, no right to create tables) is refused before anything is switched.
 */
export async function openTeamStore(url: string): Promise<PostgresStore> {
  const store = await openPostgresStore(url);
  try {
    await migrateSql(store, 'orders', ORDERS_MIGRATIONS);
    await migrateSql(store, 'batches', BATCH_MIGRATIONS);
    return store;
  } catch (error) {
    await store.close().catch(() => undefined);
    throw new TeamStoreError(`The team store at ${store.where} cannot be used: ${(error as Error).message}`, { reason: /newer PrintDesk/.test((error as Error).message) ? 'newer-store' : 'no-permission', message: (error as Error).message }, { cause: error });
  }
}

/**
 * The store PrintDesk starts on. One set by the environment that cannot be opened stops the start (said
 * with where and why); a team store saved in Settings that cannot be opened leaves the app on this
 * computer's store, saying so, so that the window still opens and the user can act; `strict` (the CLI, which
 * has no window to say it in) stops the start then too, rather than send a batch into another store.
 */
export async function openChosenStore(choice: StoreChoice, strict = false): Promise<StoreInUse> {
  const resolved = await choice.resolve();
  if (resolved.kind === 'local') return { team: null, problem: null };
  if (resolved.source === 'environment') return { team: await openPostgresStore(resolved.url), problem: null };
  if (strict) return { team: await openTeamStore(resolved.url), problem: null };
  try {
    return { team: await openTeamStore(resolved.url), problem: null };
  } catch (error) {
    if (!(error instanceof TeamStoreError)) throw error;
    return { team: null, problem: `The team store at ${resolved.where} could not be opened: ${error.failure.message}` };
  }
}

export interface StoreSwitchDeps {
  choice: StoreChoice;
  inUse(): StoreInUse;
  /** Stops the services, closes the store in use and starts them on `next` (null: this computer's store). */
  restart(next: StoreInUse): Promise<void>;
}

export function createStoreSwitch(deps: StoreSwitchDeps): StoreSwitch {
  const { choice } = deps;
  let switching: Promise<unknown> = Promise.resolve();

  async function state(): Promise<TeamState> {
    const { team, problem } = deps.inUse();
    const resolved = await choice.resolve();
    return {
      current: { kind: team ? 'team' : 'local', where: team?.where ?? null, source: resolved.source },
      saved: await choice.savedConnection(),
      problem,
      passwordStorage: choice.passwordStorage,
    };
  }

  async function withTeamStore<T>(input: TeamConnectionInput | undefined, work: (store: PostgresStore) => Promise<T>): Promise<T> {
    const inUse = deps.inUse().team;
    if (!input) {
      if (!inUse) throw new HostError('INVALID_INPUT', 'Choose a team store first: enter its connection and test it.');
      return work(inUse);
    }
    const store = await openTeamStore(await choice.urlFor(input)).catch((error: unknown) => {
      throw storeError(error);
    });
    try {
      return await work(store);
    } finally {
      await store.close().catch(() => undefined);
    }
  }

  async function use(next: StoreChoiceInput): Promise<TeamState> {
    if (choice.overridden) throw new HostError('INVALID_INPUT', 'PRINTDESK_STORE sets where drafts live while PrintDesk runs: unset it to choose here.');
    // One switch at a time: a second waits for the first and then switches from where it left.
    const run = switching.then(async () => {
      const store = next.kind === 'team' ? await openTeamStore(await choice.urlFor(next)).catch((error: unknown) => Promise.reject(storeError(error))) : null;
      await choice.save(next);
      await deps.restart({ team: store, problem: null });
    });
    switching = run.catch(() => undefined);
    await run;
    return state();
  }

  return { state, test: async (input) => testConnection(await choice.urlFor(input)), withTeamStore, use };
}
