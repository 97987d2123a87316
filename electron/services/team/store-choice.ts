// Where this computer's PrintDesk keeps drafts, as the user chose in Settings → Team: the choice and the
// connection's fields in the preferences (nothing secret), the password in a secret box (encrypted with the
// system keychain, or in memory only), kept for one user on one server: a server or user changed in the form
// needs the password again, so that a mistyped server is never sent the password of another.
import { z } from 'zod';
import { connectionUrl, whereOf } from '../../../common/team-connection.ts';
import { TeamConnection, type StoreChoiceInput, type TeamConnectionInput, type TeamState } from '../../contract/schemas/team.ts';
import type { KeyValueStore } from '../storage/preferences.ts';
import type { SecretBox } from '../storage/secret-box.ts';
import type { AuthorityFiles } from './authority-files.ts';

/** The preference the choice is kept under (the CLI reads it from the app's file). */
export const TEAM_STORE_PREFERENCE = 'teamStore';

const SavedChoice = z.object({ kind: z.enum(['local', 'team']), connection: TeamConnection.nullable() });
type SavedChoice = z.infer<typeof SavedChoice>;

/** The secret kept: a password, and the user and server it was given for. */
export const StorePassword = z.object({ password: z.string(), for: z.string() });
export type StorePassword = z.infer<typeof StorePassword>;
export type PasswordBox = SecretBox<StorePassword>;

/** Why the password is not kept where the desktop app finds no real keyring. */
export const TEAM_PASSWORD_NO_KEYRING = 'No system keyring is available, so the password is kept until PrintDesk quits: enter it again after a restart, or keep it in ~/.pgpass, which PrintDesk reads.';

/** What the store will be opened on: this computer's database, or a team's at `url` (which holds the password). */
export type ResolvedStore =
  | { kind: 'local'; source: 'default' | 'settings' }
  | { kind: 'team'; url: string; where: string; source: 'settings' | 'environment' };

/** Whose password it is: the same user on the same server, whatever the database. */
const keyOf = (connection: TeamConnection) => `${connection.user}@${connection.host}:${connection.port}`;

export interface StoreChoiceDeps {
  store: KeyValueStore;
  passwords: PasswordBox;
  /** PRINTDESK_STORE (or a test's store): wins over the saved choice, which Settings cannot then change */
  override?: string;
  /** Where a connection's certificate authority is written for the driver */
  authorities: AuthorityFiles;
}

export function createStoreChoice(deps: StoreChoiceDeps) {
  const { store, passwords, override, authorities } = deps;

  function saved(): SavedChoice {
    const parsed = SavedChoice.safeParse(store.get(TEAM_STORE_PREFERENCE));
    return parsed.success ? parsed.data : { kind: 'local', connection: null };
  }

  async function passwordFor(connection: TeamConnection): Promise<string | null> {
    const kept = await passwords.load();
    return kept && kept.for === keyOf(connection) ? kept.password : null;
  }

  /** The driver's URL for a connection: the password given, and its authority's file. */
  function urlOf(connection: TeamConnection, password: string | null): string {
    const authority = connection.tls && connection.authority ? authorities.pathFor(connection.authority) : null;
    return connectionUrl(connection, password, authority);
  }

  /** The URL for what the form holds: its password, or the one kept for the same user and server. */
  async function urlFor(input: TeamConnectionInput): Promise<string> {
    return urlOf(input.connection, input.password || (await passwordFor(input.connection)));
  }

  async function resolve(): Promise<ResolvedStore> {
    if (override) return { kind: 'team', url: override, where: '', source: 'environment' };
    const choice = saved();
    if (choice.kind === 'local' || !choice.connection) return { kind: 'local', source: choice.connection ? 'settings' : 'default' };
    return { kind: 'team', url: urlOf(choice.connection, await passwordFor(choice.connection)), where: whereOf(choice.connection), source: 'settings' };
  }

  /** Keeps the choice; a team connection's password too, when one was typed. The fields stay for the form either way. */
  async function save(choice: StoreChoiceInput): Promise<void> {
    if (choice.kind === 'local') {
      store.set(TEAM_STORE_PREFERENCE, { kind: 'local', connection: saved().connection });
      return;
    }
    if (choice.password) await passwords.save({ password: choice.password, for: keyOf(choice.connection) });
    store.set(TEAM_STORE_PREFERENCE, { kind: 'team', connection: choice.connection } satisfies SavedChoice);
  }

  /** The form's starting point: the fields saved (never the password: only whether one is kept for them). */
  async function savedConnection(): Promise<TeamState['saved']> {
    const { connection } = saved();
    return connection ? { connection, passwordSaved: (await passwordFor(connection)) !== null } : null;
  }

  return {
    overridden: Boolean(override),
    resolve,
    urlFor,
    save,
    savedConnection,
    passwordStorage: { persistent: passwords.persistent, reason: passwords.reason },
  };
}
export type StoreChoice = ReturnType<typeof createStoreChoice>;
