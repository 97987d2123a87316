import { decodeJwt } from 'jose';
import type { SessionState } from '../../contract/channels.ts';
import type { ApiClient, TokenSource } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import { inGroup } from '../../../common/errors.ts';
import type { TokenVault } from './token-vault.ts';

interface Current {
  email: string;
  service: string;
  refreshToken: string;
  accessToken: string | null;
  /** when to stop using the access token (its expiry less a margin), if readable */
  accessRenewAt: number | null;
  /** the last access token, kept for the refresh's header when it may no longer be used itself */
  lastAccessToken: string | null;
}

export interface SessionDeps {
  vault: TokenVault;
  /** the client for the service currently chosen in settings */
  client: () => ApiClient;
  now?: () => number;
  onChange: (state: SessionState) => void;
}

// Renew a little before expiry so a request does not leave with a token that dies on the way:
// 30 s, or a tenth of the token's life when it is short.
const EXPIRY_MARGIN_MS = 30_000;

export type Session = ReturnType<typeof createSession>;

/**
 * The signed-in address as PrintDesk keeps it: in any capitals it is one account, as services and mail
 * treat it, so signing in as "Ada@Example.com" must not hide what "ada@example.com" left. The service is
 * sent the address as typed (docs/api-assumptions.md).
 */
export function accountEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Whose drafts and uploads are whose: the service and the signed-in e-mail, so the same address on two
 * services is two accounts. Null while signed out.
 */
export function accountKey(state: SessionState, serviceKey: string): string | null {
  return state.status === 'signed-in' && state.email ? `${serviceKey} ${accountEmail(state.email)}` : null;
}

export function createSession(deps: SessionDeps) {
  const { vault, client, onChange, now = Date.now } = deps;
  let current: Current | null = null;
  let endedReason: string | null = null;
  /** Who was signed in when the session ended on its own: the sign-in form offers it again. */
  let endedEmail: string | null = null;
  let refreshing: Promise<string> | null = null;

  const state = (): SessionState => ({
    status: current ? 'signed-in' : 'signed-out',
    email: current?.email ?? (endedReason ? endedEmail : null),
    endedReason,
  });

  function adopt(email: string, service: string, accessToken: string | null, refreshToken: string, lastAccessToken = accessToken) {
    current = { email: accountEmail(email), service, refreshToken, accessToken, accessRenewAt: accessToken ? renewTimeOf(accessToken, now()) : null, lastAccessToken };
  }

  async function persist() {
    if (current) await vault.save({ email: current.email, service: current.service, refreshToken: current.refreshToken, ...(current.lastAccessToken ? { accessToken: current.lastAccessToken } : {}) });
  }

  /** Picks up a session saved before a restart; the access token is fetched when first needed. */
  async function restore(): Promise<SessionState> {
    const saved = await vault.load();
    if (saved && saved.service === client().serviceKey) adopt(saved.email, saved.service, null, saved.refreshToken, saved.accessToken ?? null);
    else if (saved) await vault.clear();
    return state();
  }

  async function signIn(email: string, password: string): Promise<SessionState> {
    const api = client();
    try {
      const pair = await api.login(email, password);
      adopt(email, api.serviceKey, pair.accessToken, pair.refreshToken);
    } catch (error) {
      if (error instanceof HostError && error.code === 'AUTHENTICATION') {
        throw new HostError('AUTHENTICATION', 'Email or password is incorrect', { status: error.status, cause: error });
      }
      throw error;
    }
    endedReason = null;
    await persist();
    onChange(state());
    return state();
  }

  async function end(reason: string | null): Promise<SessionState> {
    const wasSignedIn = current !== null;
    endedEmail = current?.email ?? null;
    current = null;
    refreshing = null;
    endedReason = reason;
    await vault.clear();
    if (wasSignedIn) onChange(state());
    return state();
  }

  function refresh(): Promise<string> {
    refreshing ??= renew().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function renew(): Promise<string> {
    const session = requireCurrent();
    try {
      const pair = await client().refresh(session.refreshToken, session.lastAccessToken);
      if (current !== session) throw new HostError('NOT_SIGNED_IN', 'You signed out');
      adopt(session.email, session.service, pair.accessToken, pair.refreshToken);
      await persist();
      return pair.accessToken;
    } catch (error) {
      if (error instanceof HostError && inGroup('sessionEnding', error.code) && current === session) {
        await end('Your session has expired. Sign in again to continue; your local work is kept.');
        throw new HostError('AUTHENTICATION', 'Your session has expired. Sign in again.', { cause: error });
      }
      throw error;
    }
  }

  function requireCurrent(): Current {
    if (!current) throw new HostError('NOT_SIGNED_IN', 'Sign in first');
    return current;
  }

  const tokens: TokenSource = {
    async accessToken() {
      const session = requireCurrent();
      const fresh = session.accessToken && (session.accessRenewAt === null || session.accessRenewAt > now());
      return fresh ? (session.accessToken as string) : refresh();
    },
    async renewAfterRejection(rejected) {
      const session = requireCurrent();
      // Another call already renewed it while this one was in flight (and it has not aged since).
      const renewed = session.accessToken && session.accessToken !== rejected && (session.accessRenewAt === null || session.accessRenewAt > now());
      return renewed ? (session.accessToken as string) : refresh();
    },
  };

  return {
    state,
    restore,
    signIn,
    signOut: () => end(null),
    tokens,
    requireSignedIn: () => requireCurrent().email,
  };
}

/**
 * When to renew a token received at `receivedAt`: its lifetime (exp - iat) counted from its arrival, less
 * a margin, so that a local clock set wrong (hours off, as after a dual boot) neither renews every token
 * at once nor uses one past its end. Without `iat`, the expiry is all there is.
 */
function renewTimeOf(token: string, receivedAt: number): number | null {
  try {
    const { exp, iat } = decodeJwt(token);
    if (typeof exp !== 'number') return null;
    if (typeof iat !== 'number' || exp <= iat) return exp * 1000 - EXPIRY_MARGIN_MS;
    const life = (exp - iat) * 1000;
    return receivedAt + life - Math.min(EXPIRY_MARGIN_MS, life / 10);
  } catch {
    // Not a JWT we can read: rely on the service's 401 instead.
    return null;
  }
}
