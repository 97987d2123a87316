import { createApiClient, type ApiClient, type ApiClientOptions } from '../electron/services/api/client.ts';
import type { Account } from '../sandbox/seed.ts';
import type { Sandbox } from '../sandbox/server.ts';
import { createSession, type Session } from '../electron/services/session/session.ts';
import { createMemoryVault } from '../electron/services/session/token-vault.ts';

/** A client signed in to a sandbox as the host builds one (as its demo account unless told): a session with a memory vault behind it. */
export async function signedInClient(
  sandbox: Pick<Sandbox, 'baseUrl' | 'demoAccount'>,
  options: Omit<ApiClientOptions, 'baseUrl' | 'tokens'> = {},
  account: Account = sandbox.demoAccount,
): Promise<{ client: ApiClient; session: Session }> {
  const baseUrl = sandbox.baseUrl;
  // The session asks for its client lazily, so the two can refer to each other.
  const session = createSession({ vault: createMemoryVault('test'), client: () => client, onChange: () => undefined });
  const client: ApiClient = createApiClient({ ...options, baseUrl, tokens: session.tokens });
  await session.signIn(account.email, account.password);
  return { client, session };
}
