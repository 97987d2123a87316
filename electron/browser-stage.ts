import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * Browser mode's stand-in for a dropped file's path: the page streams the file here and the
 * upload queue reads it from disk like any other. Each file gets a folder of its own, so two
 * files of the same name never meet, and the name keeps only its last path segment.
 */
export async function stageUpload(req: IncomingMessage, stageDir: string, name: string): Promise<string> {
  const safeName = basename(name).replace(/[^\p{L}\p{N}\p{M} ._()[\]+-]/gu, '_').slice(0, 200) || 'model';
  const folder = join(stageDir, randomUUID());
  await mkdir(folder, { recursive: true });
  const path = join(folder, safeName);
  await pipeline(req, createWriteStream(path, { mode: 0o600 }));
  return path;
}
