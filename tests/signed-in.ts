import { createApiClient, type ApiClient, type ApiClientOptions } from '../electron/api/client.ts';
import { DEMO_ACCOUNT } from '../electron/sandbox/seed.ts';
import { createSession, type Session } from '../electron/session/session.ts';
import { createMemoryVault } from '../electron/session/token-vault.ts';

/** A client signed in to a sandbox as the host builds one: a session with a memory vault behind it. */
export async function signedInClient(
  baseUrl: string,
  options: Omit<ApiClientOptions, 'baseUrl' | 'tokens'> = {},
  account: { email: string; password: string } = DEMO_ACCOUNT,
): Promise<{ client: ApiClient; session: Session }> {
  // The session asks for its client lazily, so the two can refer to each other.
  const session = createSession({ vault: createMemoryVault('test'), client: () => client, onChange: () => undefined });
  const client: ApiClient = createApiClient({ ...options, baseUrl, tokens: session.tokens });
  await session.signIn(account.email, account.password);
  return { client, session };
}
