import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { basename, extname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR, PRIVATE_FILE } from '../services/private-files.ts';

/** Larger than any model a print service takes, and a bound on the disk one staged file may fill. */
export const MAX_STAGED_BYTES = 2 * 1024 ** 3;
/** A staged file this young may still be on its way to the queue: pruning leaves it for the next time. */
const FRESH_MS = 60 * 60 * 1000;

export class StagedTooLarge extends Error {}

/** Passes bytes on until there are more than `limit` of them. */
function capped(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? new StagedTooLarge(`over ${limit} bytes`) : null, chunk);
    },
  });
}

const MAX_NAME = 200;

/**
 * Invisible format characters (\p{Cf}): the bidirectional controls, which make "part<U+202E>lts.exe" show as
 * "partexe.stl", and zero-width ones that make two names look alike. Joiners stay where they join something
 * (Persian and Indic words, emoji sequences such as woman + ZWJ + wrench), as they change how those are drawn.
 */
const INVISIBLE = /(?<![\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Modifier}])[\u200C\u200D]|[\u200C\u200D](?![\p{L}\p{M}\p{Extended_Pictographic}])|(?![\u200C\u200D])\p{Cf}/gu;

/**
 * The name the copy is saved under, which becomes the model's name on the service: the user's own,
 * commas, apostrophes and all, less only what some file system refuses (control characters, line and
 * paragraph separators, <>:"/\|?*, and the trailing dots and spaces Windows drops) and the invisible
 * characters that could disguise it.
 */
export function stagedName(name: string): string {
  const visible = name.replace(INVISIBLE, '');
  const cleaned = basename(visible.replace(/\\/g, '/')).replace(/[\p{Cc}\p{Zl}\p{Zp}<>:"/\\|?*]/gu, '_').replace(/[. ]+$/, '').trim();
  if (cleaned === '' || cleaned === '..') return 'model';
  // Shortened before its extension, which the upload check and the service go by.
  const extension = extname(cleaned).slice(0, 10);
  return cleaned.length <= MAX_NAME ? cleaned : cleaned.slice(0, MAX_NAME - extension.length) + extension;
}

/**
 * Browser mode's stand-in for a dropped file's path: the page streams the file here and the
 * upload queue reads it from disk like any other. Each file gets a folder of its own, so two
 * files of the same name never meet, and the name keeps only its last path segment. A file over
 * MAX_STAGED_BYTES, or one whose stream breaks off, leaves nothing behind.
 */
export async function stageUpload(req: IncomingMessage, stageDir: string, name: string, limit = MAX_STAGED_BYTES): Promise<string> {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw new StagedTooLarge('declared too large');
  const safeName = stagedName(name);
  const folder = join(stageDir, randomUUID());
  await mkdir(folder, PRIVATE_DIR);
  const path = join(folder, safeName);
  try {
    await pipeline(req, capped(limit), createWriteStream(path, PRIVATE_FILE));
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return path;
}

/**
 * Deletes staged copies that no upload item names any more (cleared from the list, refused by the
 * check, or left by a drop that never reached the queue). The queue needs a copy only while its item
 * exists; copies staged within the last hour are left alone, as their item may be on its way.
 */
export async function pruneStaged(stageDir: string, inUse: ReadonlySet<string>, now = Date.now()): Promise<number> {
  const folders = await readdir(stageDir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of folders) {
    const folder = join(stageDir, name);
    const info = await stat(folder).catch(() => null);
    if (!info?.isDirectory() || now - info.mtimeMs < FRESH_MS) continue;
    const files = await readdir(folder).catch(() => [] as string[]);
    if (files.some((file) => inUse.has(join(folder, file)))) continue;
    await rm(folder, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
