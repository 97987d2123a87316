// Just enough ZIP to read an OPC package safely. Sizes come from the central directory and are enforced while
// inflating: an entry that inflates past its declared size is stopped at once, so a lying header can cost
// neither unbounded memory nor unbounded time.
import { Inflate } from 'fflate';
import { ModelParseError } from './errors.ts';
import type { ParseOptions } from './types.ts';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  dataOffset: number;
}

/** Deflate cannot exceed about 1032:1; a header claiming more is lying. */
const MAX_DEFLATE_RATIO = 1100;
/**
 * A mesh's XML is mostly distinct numbers: the corpus and generated models compress 6–10:1. A large part
 * compressing 200:1 or more is padding, not a model: refused before a second of inflating and a gigabyte.
 */
const MAX_MODEL_RATIO = 200;
const RATIO_CHECKED_FROM = 16 * 1024 * 1024;
const CHUNK = 64 * 1024;
const utf8 = new TextDecoder();

function u16(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8);
}

function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

function badZip(what: string, offset: number): never {
  throw new ModelParseError('BAD_ZIP', `The 3MF package is damaged: ${what} (byte ${offset}).`, { offset });
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4;
}

function findEndOfDirectory(bytes: Uint8Array): number {
  const earliest = Math.max(0, bytes.length - 22 - 65535);
  for (let at = bytes.length - 22; at >= earliest; at--) if (u32(bytes, at) === 0x06054b50) return at;
  return badZip('no end-of-directory record; the file is truncated or not a ZIP', bytes.length);
}

export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const end = findEndOfDirectory(bytes);
  const count = u16(bytes, end + 10);
  let at = u32(bytes, end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new ModelParseError('UNSUPPORTED', 'ZIP64 packages (over 4 GB or 65,535 parts) are not supported.', { offset: end });
  const entries: ZipEntry[] = [];
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || u32(bytes, at) !== 0x02014b50) badZip(`directory entry ${k + 1} is missing`, at);
    const nameLength = u16(bytes, at + 28);
    const local = u32(bytes, at + 42);
    if (at + 46 + nameLength > bytes.length) badZip('a directory entry runs past the end', at);
    if (local + 30 > bytes.length || u32(bytes, local) !== 0x04034b50) badZip(`the local header of entry ${k + 1} is missing`, local);
    const dataOffset = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28);
    const entry: ZipEntry = {
      name: utf8.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: u16(bytes, at + 10),
      compressedSize: u32(bytes, at + 20),
      size: u32(bytes, at + 24),
      dataOffset,
    };
    if (dataOffset + entry.compressedSize > bytes.length) badZip(`"${entry.name}" runs past the end of the file`, dataOffset);
    entries.push(entry);
    at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
  }
  return entries;
}

/** Refuses, before inflating anything, entries whose declared sizes are too big or impossibly compressed. */
export function checkDeclaredSizes(entries: ZipEntry[], maxBytes: number): void {
  let total = 0;
  for (const entry of entries) {
    total += entry.size;
    if (entry.method === 8 && entry.size > 1024 * 1024 && entry.size > entry.compressedSize * MAX_DEFLATE_RATIO) {
      throw new ModelParseError('ZIP_BOMB', `"${entry.name}" claims to inflate ${entry.compressedSize} bytes to ${entry.size}, beyond what deflate can do.`, { part: entry.name });
    }
    if (entry.method === 8 && entry.size > RATIO_CHECKED_FROM && entry.size > entry.compressedSize * MAX_MODEL_RATIO) {
      const ratio = Math.round(entry.size / Math.max(1, entry.compressedSize));
      throw new ModelParseError('ZIP_BOMB', `"${entry.name}" would inflate ${ratio} times (to ${(entry.size / 2 ** 20).toFixed(0)} MB), which no model does: the file looks like a zip bomb.`, { part: entry.name });
    }
  }
  if (total > maxBytes) throw new ModelParseError('ZIP_BOMB', `The model parts would inflate to ${total} bytes, over the ${maxBytes}-byte limit.`);
}

export type RawInflater = NonNullable<ParseOptions['inflateRaw']>;

/** Inflates one entry into a buffer of its declared size, stopping the moment it would overflow. */
export function extract(bytes: Uint8Array, entry: ZipEntry, options: Pick<ParseOptions, 'onProgress' | 'inflateRaw'> = {}): Uint8Array {
  const data = bytes.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  if (entry.method === 0) return data.slice();
  if (entry.method !== 8) throw new ModelParseError('UNSUPPORTED', `"${entry.name}" uses ZIP compression method ${entry.method}; only deflate is supported.`, { part: entry.name });
  const native = options.inflateRaw && inflateNatively(options.inflateRaw, data, entry);
  return native ?? inflateHere(data, entry, options.onProgress);
}

function inflateNatively(inflateRaw: RawInflater, data: Uint8Array, entry: ZipEntry): Uint8Array | undefined {
  let out: Uint8Array | undefined;
  try {
    out = inflateRaw(data, entry.size, entry.name);
  } catch (error) {
    if (error instanceof ModelParseError) throw error;
    throw new ModelParseError('BAD_ZIP', `"${entry.name}" is corrupt: ${(error as Error).message}.`, { part: entry.name });
  }
  if (out && out.length !== entry.size) throw new ModelParseError('TRUNCATED', `"${entry.name}" inflates to ${out.length} bytes, fewer than the ${entry.size} declared.`, { part: entry.name });
  return out;
}

function inflateHere(data: Uint8Array, entry: ZipEntry, onProgress?: (fraction: number) => void): Uint8Array {
  const out = new Uint8Array(entry.size);
  let written = 0;
  const inflate = new Inflate((chunk) => {
    if (written + chunk.length > out.length) {
      throw new ModelParseError('ZIP_BOMB', `"${entry.name}" inflates to more than the ${entry.size} bytes its header declares.`, { part: entry.name });
    }
    out.set(chunk, written);
    written += chunk.length;
  });
  try {
    for (let at = 0; at < data.length; at += CHUNK) {
      inflate.push(data.subarray(at, Math.min(data.length, at + CHUNK)), at + CHUNK >= data.length);
      onProgress?.(Math.min(1, (at + CHUNK) / data.length));
    }
  } catch (error) {
    if (error instanceof ModelParseError) throw error;
    throw new ModelParseError('BAD_ZIP', `"${entry.name}" is corrupt: ${(error as Error).message}.`, { part: entry.name });
  }
  if (data.length === 0) inflate.push(new Uint8Array(0), true);
  if (written !== out.length) throw new ModelParseError('TRUNCATED', `"${entry.name}" inflates to ${written} bytes, fewer than the ${entry.size} declared.`, { part: entry.name });
  return out;
}
