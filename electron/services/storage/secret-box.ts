// A secret kept across restarts, encrypted with the system keychain (Electron's safeStorage), in a file only
// its user can read; where no keychain is, in memory only, with the reason said. The session's refresh token
// and a team store's password are each kept in one (session/token-vault.ts, team/store-choice.ts).
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files.ts';

export interface SecretBox<T> {
  /** true when what is saved is encrypted on disk and outlives the process */
  readonly persistent: boolean;
  /** why it is not persistent, in words for the user */
  readonly reason: string | null;
  load(): Promise<T | null>;
  save(secret: T): Promise<void>;
  clear(): Promise<void>;
}

/** The part of Electron's safeStorage a box uses. */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
  getSelectedStorageBackend?(): string;
}

export function createMemoryBox<T>(reason: string): SecretBox<T> {
  let saved: T | null = null;
  return {
    persistent: false,
    reason,
    load: async () => saved,
    save: async (secret) => {
      saved = secret;
    },
    clear: async () => {
      saved = null;
    },
  };
}

/**
 * Encrypted with the OS keychain. On Linux without a keyring safeStorage falls back to a hard-coded key
 * ('basic_text'), which is not encryption: then the secret stays in memory only, for `noKeyringReason`.
 */
export function createSafeStorageBox<T>(schema: z.ZodType<T>, safeStorage: SafeStorageLike, filePath: string, noKeyringReason: string): SecretBox<T> {
  const backend = safeStorage.getSelectedStorageBackend?.();
  if (!safeStorage.isEncryptionAvailable() || backend === 'basic_text') return createMemoryBox<T>(noKeyringReason);
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
        return schema.parse(JSON.parse(safeStorage.decryptString(encrypted)));
      } catch {
        // Unreadable (keyring changed, file damaged): forget it rather than fail every start.
        await rm(filePath, { force: true });
        return null;
      }
    },
    async save(secret) {
      await mkdir(dirname(filePath), PRIVATE_DIR);
      const temp = `${filePath}.${process.pid}.tmp`;
      await writeFile(temp, safeStorage.encryptString(JSON.stringify(secret)), PRIVATE_FILE);
      await rename(temp, filePath);
    },
    async clear() {
      await rm(filePath, { force: true });
    },
  };
}
