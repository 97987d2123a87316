// Which parser a file needs, decided by its content first and its name second.
import { ModelParseError } from './errors.ts';
import { isSpace, matchesWord } from './numbers.ts';
import { declaredFacets, STL_FACET_BYTES, STL_HEADER_BYTES } from './stl-binary.ts';
import type { ModelFormat } from './types.ts';
import { isZip } from './zip.ts';
import { extensionOf } from './format-names.ts';

export { describeFormat, extensionMismatch } from './format-names.ts';

function firstNonSpace(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length && i < 4096 && isSpace(bytes[i])) i++;
  return i;
}

/** Looks like text made of OBJ statements: a line starting with v, f, o, g, #, vn, vt, usemtl or mtllib. */
function looksLikeObj(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 64 * 1024);
  for (let i = 0; i < end; i++) {
    const c = bytes[i];
    if (c === 0) return false;
    if (i > 0 && bytes[i - 1] !== 10) continue;
    if ((c === 118 || c === 102) && (bytes[i + 1] === 32 || bytes[i + 1] === 9)) return true;
  }
  return false;
}

/** Names what a non-model file most likely is, for a message the user can act on. */
function foreignFormat(bytes: Uint8Array): string | null {
  const b = bytes;
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'a PNG image';
  if (b[0] === 0xff && b[1] === 0xd8) return 'a JPEG image';
  if (b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46) return 'a PDF document';
  if (b[0] === 0x1f && b[1] === 0x8b) return 'a gzip archive';
  if (isZip(b)) return 'a ZIP archive';
  return null;
}

/**
 * Control bytes (NUL and the like) in the first kilobyte: never in an ASCII STL, nearly always in a
 * binary one's count and floats. A truncated binary STL whose header says "solid" is then read as
 * binary, whose parser says it is truncated, rather than as text without a single facet.
 */
function hasControlBytes(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 1024);
  for (let i = 0; i < end; i++) {
    const c = bytes[i];
    if (c < 0x20 && c !== 9 && c !== 10 && c !== 12 && c !== 13) return true;
  }
  return false;
}

/**
 * STL binary vs ASCII by size arithmetic (84 + 50 × count, trailing bytes allowed): many binary headers
 * begin with "solid", so the first bytes prove nothing. A text file read as a binary count gives at least
 * 0x20202020 facets (26 GB), so an ASCII file can never pass the size test.
 */
export function detectFormat(bytes: Uint8Array, fileName: string): ModelFormat {
  if (bytes.length === 0) throw new ModelParseError('EMPTY', `${fileName} is empty (0 bytes): save or export it again from the program that made it.`);
  if (isZip(bytes)) return '3mf';
  const facets = declaredFacets(bytes);
  if (facets >= 0 && bytes.length >= STL_HEADER_BYTES + STL_FACET_BYTES * facets) return 'stl-binary';
  if (matchesWord(bytes, firstNonSpace(bytes), 'solid') && !hasControlBytes(bytes)) return 'stl-ascii';
  if (looksLikeObj(bytes)) return 'obj';
  const foreign = foreignFormat(bytes);
  // A short or truncated binary STL: let its parser say exactly what is wrong with it.
  if (!foreign && extensionOf(fileName) === 'stl') return 'stl-binary';
  throw new ModelParseError('NOT_A_MODEL', notAModel(fileName, foreign));
}

/** Why the content is no model: what it is instead when that can be told, else what its name promised. */
function notAModel(fileName: string, foreign: string | null): string {
  if (foreign) return `${fileName} is ${foreign}, not a 3D model: PrintDesk reads STL, OBJ and 3MF.`;
  const extension = extensionOf(fileName);
  if (extension === 'obj') return `${fileName} is named .obj but holds no OBJ vertex (v) or face (f) lines: export it again as OBJ.`;
  if (extension === '3mf') return `${fileName} is named .3mf but is not a 3MF package (a ZIP archive): export it again as 3MF.`;
  return `${fileName} is not a 3D model this app reads: PrintDesk reads STL, OBJ and 3MF.`;
}
