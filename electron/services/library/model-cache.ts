// Models downloaded for previews, kept on disk by content hash so that opening a model again costs no
// download. Files are written whole (temp file, then rename) only after their hash was checked, so a name
// in here always means those bytes. The least recently used go once the cache passes its size.
import { mkdir, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { readWhole } from '../models/read-whole.ts';
import { join } from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files.ts';

export const MODEL_CACHE_BYTES = 1024 * 1024 * 1024;

const HASH = /^[0-9a-f]{64}$/;

export interface ModelCache {
  get(sha256: string): Promise<Uint8Array<ArrayBuffer> | null>;
  put(sha256: string, bytes: Uint8Array): Promise<void>;
}

export function createModelCache(dir: string, maxBytes = MODEL_CACHE_BYTES): ModelCache {
  const pathOf = (sha256: string) => (HASH.test(sha256) ? join(dir, sha256) : null);

  async function prune(): Promise<void> {
    const names = (await readdir(dir)).filter((name) => HASH.test(name));
    const files = await Promise.all(names.map(async (name) => ({ name, ...(await stat(join(dir, name)).catch(() => ({ size: 0, mtimeMs: 0 }))) })));
    let total = files.reduce((sum, file) => sum + file.size, 0);
    for (const file of files.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
      if (total <= maxBytes) break;
      await unlink(join(dir, file.name)).catch(() => undefined);
      total -= file.size;
    }
  }

  return {
    async get(sha256) {
      const path = pathOf(sha256.toLowerCase());
      if (!path) return null;
      const bytes = await readWhole(path).catch(() => null);
      if (!bytes) return null;
      // Marks it recently used, for pruning.
      const now = new Date();
      await utimes(path, now, now).catch(() => undefined);
      return bytes;
    },
    async put(sha256, bytes) {
      const path = pathOf(sha256.toLowerCase());
      if (!path || bytes.length > maxBytes) return;
      await mkdir(dir, PRIVATE_DIR);
      const temp = `${path}.${process.pid}.tmp`;
      await writeFile(temp, bytes, PRIVATE_FILE);
      // Use times come from one clock (the app's, as in get), so the oldest go first even if the disk's differs.
      const now = new Date();
      await utimes(temp, now, now);
      await rename(temp, path);
      await prune();
    },
  };
}
