import { z } from 'zod';
import { createMemoryBox, createSafeStorageBox, type SafeStorageLike, type SecretBox } from '../storage/secret-box.ts';

export type { SafeStorageLike } from '../storage/secret-box.ts';

/**
 * What survives a restart, encrypted: never a password. The last access token is kept beside the refresh
 * token only so that the first refresh after a restart carries it, as section 5 asks of every call; it is
 * not used for anything else after a restart.
 */
export const StoredSession = z.object({
  email: z.string(),
  /** the service the token belongs to (its key: see ApiClientOptions.serviceKey) */
  service: z.string(),
  refreshToken: z.string(),
  accessToken: z.string().optional(),
});
export type StoredSession = z.infer<typeof StoredSession>;

export type TokenVault = SecretBox<StoredSession>;

export const createMemoryVault = (reason: string): TokenVault => createMemoryBox<StoredSession>(reason);

/**
 * Refresh token encrypted with the OS keychain (safeStorage). Without a real keyring it stays in memory only
 * and the user is told (see createSafeStorageBox).
 */
export function createSafeStorageVault(safeStorage: SafeStorageLike, filePath: string): TokenVault {
  return createSafeStorageBox(StoredSession, safeStorage, filePath, 'No system keyring is available, so you will need to sign in again after a restart.');
}
