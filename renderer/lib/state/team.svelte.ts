// Settings → Team: where drafts live, the connection being entered and its test, the switch (after which the
// page loads again from the host's new services) and moving this computer's work into the team store. The
// password typed lives here until it is sent, and nothing sends one back.
import type { AppError } from '../../../electron/contract/channels.ts';
import type { ConnectionTest, MoveReport, TeamState } from '../../../electron/contract/schemas/team.ts';
import { connectionFromUrl, connectionProblems, DEFAULT_POSTGRES_PORT, MAX_AUTHORITY_CHARS, whereOf, type TeamConnectionFields } from '../../../common/team-connection.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';

/** Said once after the page loads again on the store chosen. */
const SWITCHED_KEY = 'printdesk.storeSwitched';

/** The page has just loaded again on the store chosen in Settings: it opens there, to say so. */
export const switchedJustNow = () => sessionStorage.getItem(SWITCHED_KEY) !== null;

const EMPTY: TeamConnectionFields = { host: '', port: DEFAULT_POSTGRES_PORT, database: '', user: '', tls: false, authority: null };

/** Whose saved password it is: the same user on the same server (the host keeps it for them only). */
const sameServer = (a: TeamConnectionFields, b: TeamConnectionFields) => a.host.trim() === b.host.trim() && a.port === b.port && a.user.trim() === b.user.trim();

class TeamSettingsStore {
  state = $state<TeamState | null>(null);
  loadError = $state<AppError | null>(null);
  /** the radio's choice, before it is put into effect */
  kind = $state<'local' | 'team'>('local');
  fields = $state<TeamConnectionFields>({ ...EMPTY });
  /** what the user typed; empty means "the one saved for this server" */
  password = $state('');
  /** the fields were filled from a pasted postgres:// address */
  pasted = $state(false);
  /** the name of the authority's file chosen in this form (a saved one is known by its certificates only) */
  authorityFile = $state<string | null>(null);
  testing = $state(false);
  /** the last test, for the fields as they were then (a change of them puts it aside) */
  test = $state<{ result: ConnectionTest; of: string } | null>(null);
  switching = $state(false);
  moving = $state(false);
  moved = $state<MoveReport | null>(null);
  error = $state<AppError | null>(null);
  /** where the page was switched to before it loaded again: null for this computer */
  switchedTo = $state<{ where: string | null } | null>(null);

  get problems() {
    return connectionProblems(this.fields);
  }

  get ready() {
    return Object.keys(this.problems).length === 0;
  }

  /** The test, if it is of the fields and password as they are now. */
  get tested(): ConnectionTest | null {
    return this.test && this.test.of === this.signature() ? this.test.result : null;
  }

  get savedPasswordApplies() {
    const saved = this.state?.saved;
    return !!saved?.passwordSaved && sameServer(saved.connection, this.fields);
  }

  /**
   * The team store in use is the one the form names, reached another way: a new password typed (the
   * administrator changed it), another user, TLS or authority. "Use" then reconnects to it that way.
   */
  get reconnects() {
    const current = this.state?.current;
    const saved = this.state?.saved?.connection;
    if (this.kind !== 'team' || current?.kind !== 'team' || !saved || current.where !== this.where) return false;
    const fields = this.fields;
    return this.password !== '' || fields.user.trim() !== saved.user || fields.tls !== saved.tls || (fields.authority ?? null) !== (saved.authority ?? null);
  }

  get byEnvironment() {
    return this.state?.current.source === 'environment';
  }

  load = async () => {
    try {
      const state = unwrap(await printdesk.team.get());
      this.state = state;
      this.loadError = null;
      this.kind = state.current.kind === 'team' || (state.problem && state.saved) ? 'team' : 'local';
      if (state.saved) this.fields = { ...state.saved.connection };
    } catch (error) {
      this.loadError = asAppError(error);
    }
    // Said by the first Settings shown after the page loaded again (the project may open around it meanwhile).
    const switched = sessionStorage.getItem(SWITCHED_KEY);
    sessionStorage.removeItem(SWITCHED_KEY);
    if (switched) this.switchedTo = JSON.parse(switched) as { where: string | null };
  };

  /** A postgres:// address typed or pasted into Server fills every field, its password the password's. */
  setHost = (text: string) => {
    const parsed = connectionFromUrl(text);
    if (!parsed) {
      this.fields.host = text;
      // Typed over: the server is no longer the pasted address's.
      this.pasted = false;
      return;
    }
    // An address names no certificate: the authority chosen stays.
    this.fields = { ...parsed.fields, authority: this.fields.authority ?? null };
    if (parsed.password) this.password = parsed.password;
    this.pasted = true;
  };

  /**
   * The certificate of the authority that signed the server's, from the file the user chose: read no further
   * than a certificate file could go, so that a wrong file of gigabytes is told as too large, not loaded.
   */
  chooseAuthority = async (file: File) => {
    this.fields.authority = await file.slice(0, MAX_AUTHORITY_CHARS + 1).text();
    this.authorityFile = file.name;
  };

  /** Back to the public authorities. */
  removeAuthority = () => {
    this.fields.authority = null;
    this.authorityFile = null;
  };

  testConnection = async () => {
    if (!this.ready) return;
    this.testing = true;
    this.error = null;
    const of = this.signature();
    try {
      this.test = { result: unwrap(await printdesk.team.test(this.input())), of };
    } catch (error) {
      this.error = asAppError(error);
    } finally {
      this.testing = false;
    }
  };

  /** Puts the choice into effect: the host's services restart on it, and the page loads again from them. */
  use = async () => {
    if (this.kind === 'team' && !this.ready) return;
    this.switching = true;
    this.error = null;
    try {
      const state = unwrap(await printdesk.team.use(this.kind === 'team' ? { kind: 'team', ...this.input() } : { kind: 'local' }));
      this.password = '';
      sessionStorage.setItem(SWITCHED_KEY, JSON.stringify({ where: state.current.where }));
      location.reload();
    } catch (error) {
      this.error = asAppError(error);
      this.switching = false;
    }
  };

  /** Into the store in use when it is a team's, else into the one the form names. */
  moveLocalWork = async () => {
    this.moving = true;
    this.error = null;
    this.moved = null;
    try {
      const intoCurrent = this.state?.current.kind === 'team';
      this.moved = unwrap(await printdesk.team.moveLocalWork(intoCurrent ? {} : { target: this.input() }));
      // The test said what the store held before: it holds PrintDesk's tables and these orders now.
      if (!intoCurrent && this.tested) await this.testConnection();
      // What waits in this computer's Outbox is held here now.
      this.state = unwrap(await printdesk.team.get());
    } catch (error) {
      this.error = asAppError(error);
    } finally {
      this.moving = false;
    }
  };

  dismissSwitched = () => {
    this.switchedTo = null;
  };

  /** The team store the move goes to: the one in use, or the form's once tested. */
  get moveTarget(): string | null {
    if (this.state?.current.kind === 'team') return this.state.current.where;
    const tested = this.tested;
    return tested?.ok ? tested.where : null;
  }

  /** How the form's server reads, for the words around it. */
  get where() {
    return whereOf(this.fields);
  }

  private input() {
    const connection = { ...this.fields, host: this.fields.host.trim(), database: this.fields.database.trim(), user: this.fields.user.trim() };
    return this.password ? { connection, password: this.password } : { connection };
  }

  private signature() {
    return JSON.stringify([this.fields, this.password]);
  }
}

export const teamSettings = new TeamSettingsStore();
