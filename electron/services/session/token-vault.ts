import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files.ts';

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

export interface TokenVault {
  /** true when what is saved is encrypted on disk and outlives the process */
  readonly persistent: boolean;
  /** why it is not persistent, in words for the user */
  readonly reason: string | null;
  load(): Promise<StoredSession | null>;
  save(session: StoredSession): Promise<void>;
  clear(): Promise<void>;
}

/** The part of Electron's safeStorage the vault uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
}

export function createMemoryVault(reason: string): TokenVault {
  let saved: StoredSession | null = null;
  return {
    persistent: false,
    reason,
    load: async () => saved,
    save: async (session) => {
      saved = session;
    },
    clear: async () => {
      saved = null;
    },
  };
}

/**
 * Refresh token encrypted with the OS keychain (safeStorage). On Linux without a keyring
 * safeStorage falls back to a hard-coded key ('basic_text'), which is not encryption: then the
 * token stays in memory only and the user is told.
 */
export function createSafeStorageVault(safeStorage: SafeStorageLike, filePath: string): TokenVault {
  const backend = safeStorage.getSelectedStorageBackend?.();
  if (!safeStorage.isEncryptionAvailable() || backend === 'basic_text') {
    return createMemoryVault('No system keyring is available, so you will need to sign in again after a restart.');
  }
  return {
    persistent: true,
    reason: null,
    async load() {
      let encrypted: Buffer;
      try {
        encrypted = await readFile(filePath);
      } catch {
        return null;
      }
      try {
        return StoredSession.parse(JSON.parse(safeStorage.decryptString(encrypted)));
      } catch {
        // Unreadable (keyring changed, file damaged): forget it rather than fail every start.
        await rm(filePath, { force: true });
        return null;
      }
    },
    async save(session) {
      await mkdir(dirname(filePath), PRIVATE_DIR);
      const temp = `${filePath}.${process.pid}.tmp`;
      await writeFile(temp, safeStorage.encryptString(JSON.stringify(session)), PRIVATE_FILE);
      await rename(temp, filePath);
    },
    async clear() {
      await rm(filePath, { force: true });
    },
  };
}
