// Checks a dropped file before it is queued: readable, not empty, under the size limit, a model
// extension, and content that fits the extension (format-check.ts). A dropped folder is walked
// for model files. Each failure is a per-file error; the other files go on.
import { constants } from 'node:fs';
import { access, open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { readableBytes } from '../../../common/readable-number.ts';
import { isModelFile } from '../../../common/model-files.ts';
import { checkModelFile } from './format-check.ts';
import type { Rejection } from '../../contract/schemas/library.ts';

/** The sandbox's limit; a real service's is unknown, so it is a setting (docs/api-assumptions.md). */
export const DEFAULT_MAX_FILE_BYTES = 512 * 1024 * 1024;
// A dropped home directory should not turn into a million uploads.
const MAX_FILES_PER_DROP = 10_000;

export interface CheckedFile {
  path: string;
  fileName: string;
  sizeBytes: number;
  mtimeMs: number;
}

export type { Rejection };

export type Preflight = { ok: true; file: CheckedFile } | { ok: false; rejection: Rejection };

/**
 * Files named directly are kept whatever their extension (so a wrong one gets its error);
 * inside dropped folders only model files are taken, hidden ones skipped.
 */
export async function expandPaths(paths: readonly string[]): Promise<{ files: string[]; rejections: Rejection[] }> {
  const files: string[] = [];
  const rejections: Rejection[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      rejections.push(unreadable(dir, error));
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (files.length >= MAX_FILES_PER_DROP || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && isModelFile(entry.name)) files.push(full);
    }
  };
  for (const given of paths) {
    const resolved = path.resolve(given);
    const info = await stat(resolved).catch((error: unknown) => error as Error);
    if (info instanceof Error) rejections.push(unreadable(resolved, info));
    else if (info.isDirectory()) await walk(resolved);
    else files.push(resolved);
  }
  if (files.length >= MAX_FILES_PER_DROP) {
    rejections.push({ path: paths[0] ?? '', code: 'FILE_INVALID', message: `Only the first ${MAX_FILES_PER_DROP} files of a drop are taken` });
  }
  return { files, rejections };
}

export async function preflight(filePath: string, maxBytes = DEFAULT_MAX_FILE_BYTES): Promise<Preflight> {
  const fileName = path.basename(filePath);
  const reject = (code: Rejection['code'], message: string): Preflight => ({ ok: false, rejection: { path: filePath, code, message } });
  const info = await stat(filePath).catch((error: unknown) => error as Error);
  if (info instanceof Error) return { ok: false, rejection: unreadable(filePath, info) };
  if (!info.isFile()) return reject('FILE_INVALID', `${fileName} is not a regular file`);
  if (!isModelFile(fileName)) return reject('FILE_INVALID', `${fileName}: only .stl, .obj and .3mf files can be uploaded`);
  if (info.size === 0) return reject('FILE_INVALID', `${fileName} is empty`);
  if (info.size > maxBytes) return reject('FILE_INVALID', `${fileName} is ${readableBytes(info.size)}; the service takes files up to ${readableBytes(maxBytes)}`);
  try {
    await access(filePath, constants.R_OK);
    const handle = await open(filePath, 'r');
    try {
      const check = await checkModelFile(fileName, info.size, async (position, length) => {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        return buffer.subarray(0, bytesRead);
      });
      if (!check.ok) return reject('FILE_INVALID', `${fileName}: ${check.reason}`);
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, rejection: unreadable(filePath, error) };
  }
  return { ok: true, file: { path: filePath, fileName, sizeBytes: info.size, mtimeMs: Math.floor(info.mtimeMs) } };
}

function unreadable(filePath: string, error: unknown): Rejection {
  const code = (error as { code?: string }).code;
  const why = code === 'ENOENT' ? 'it does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (error as Error).message;
  return { path: filePath, code: 'FILE_UNREADABLE', message: `Cannot read ${path.basename(filePath)}: ${why}` };
}
