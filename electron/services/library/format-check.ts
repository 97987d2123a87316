// Cheap structural checks of a model file from its size and a few small reads (head, tail, zip
// directory): enough to reject renamed junk, truncated binary STL and wrong extensions without
// parsing geometry. Pure (no Node APIs). The client's pre-upload check: the sandbox checks what it
// receives with its own code (sandbox/model-check.ts). Full parsing belongs to the viewer's parsers, not here.

import { FILE_KIND_LABELS, fileKind } from '../../../common/file-kind.ts';
import { MODEL_EXTENSIONS, modelExtension, type ModelExtension } from '../../../common/model-files.ts';
import { binaryStlCountProblem } from '../../../common/models/stl-binary.ts';

export type FormatCheck = { ok: true; format: ModelExtension; variant: 'ascii' | 'binary' | 'text' | 'zip' } | { ok: false; reason: string };

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export type ReadAt = (position: number, length: number) => Promise<Uint8Array>;

const PROBE_BYTES = 64 * 1024;
// The zip end record sits in the last 22 bytes plus a comment of up to 65,535 bytes.
const ZIP_TAIL_BYTES = 22 + 65_535;
const MAX_ZIP_DIRECTORY = 4 * 1024 * 1024;
const LABEL: Record<ModelExtension, string> = { stl: 'STL', obj: 'OBJ', '3mf': '3MF' };

interface Probe {
  size: number;
  head: Uint8Array;
  tail: Uint8Array;
  read: ReadAt;
}

/** The format a file name claims (common/model-files.ts), under the name the sandbox still imports. */
export const formatFromName = modelExtension;

/** Checks that the file's content is the format its extension claims, with a reason a user can act on. */
export async function checkModelFile(fileName: string, size: number, read: ReadAt): Promise<FormatCheck> {
  const claimed = modelExtension(fileName);
  if (!claimed) return { ok: false, reason: 'The file name must end in .stl, .obj or .3mf' };
  if (size === 0) return { ok: false, reason: 'The file is empty' };
  const probe: Probe = {
    size,
    head: await read(0, Math.min(size, PROBE_BYTES)),
    tail: await read(Math.max(0, size - ZIP_TAIL_BYTES), Math.min(size, ZIP_TAIL_BYTES)),
    read,
  };
  const own = await CHECKS[claimed](probe);
  if (own.ok) return own;
  for (const other of MODEL_EXTENSIONS) {
    if (other !== claimed && (await CHECKS[other](probe)).ok) {
      return { ok: false, reason: `The file is named .${claimed} but its content is ${LABEL[other]}` };
    }
  }
  // A ZIP named .3mf is a damaged 3MF: its own reason says more.
  const kind = claimed === '3mf' ? null : fileKind(probe.head);
  return kind ? { ok: false, reason: `This is ${FILE_KIND_LABELS[kind]}, not ${claimed === '3mf' ? 'a' : 'an'} ${LABEL[claimed]} model. Export or save the model as STL, OBJ or 3MF and upload that file.` } : own;
}

const CHECKS: Record<ModelExtension, (probe: Probe) => FormatCheck | Promise<FormatCheck>> = { stl: checkStl, obj: checkObj, '3mf': check3mf };

function checkStl({ size, head, tail }: Probe): FormatCheck {
  // Binary first, by size as the parser decides: several real binary files start their header with "solid" too.
  const facets = size >= 84 ? view(head).getUint32(80, true) : -1;
  const problem = facets > 0 ? binaryStlCountProblem(size, facets) : null;
  if (facets > 0 && !problem) return { ok: true, format: 'stl', variant: 'binary' };
  const text = latin1(head.subarray(0, 512));
  if (/^\s*solid\b/i.test(text) && isText(head.subarray(0, 512))) {
    if (/endsolid/i.test(latin1(tail.subarray(-1024)))) return { ok: true, format: 'stl', variant: 'ascii' };
    if (isText(head)) return { ok: false, reason: 'The ASCII STL ends early: there is no "endsolid" at its end' };
  }
  if (size < 84) return { ok: false, reason: `The file is too short for a binary STL (${size} bytes; the header alone is 84)` };
  if (!problem) return { ok: false, reason: 'The binary STL has no triangles' };
  return { ok: false, reason: withoutStop(problem.message) };
}

/** The parser's sentences end with a stop; reasons here are quoted inside a sentence. */
function withoutStop(message: string): string {
  return message.replace(/\.$/, '');
}

function checkObj({ head, tail }: Probe): FormatCheck {
  if (!isText(head.subarray(0, 4096))) return { ok: false, reason: 'This is not an OBJ file: OBJ is text and this file is binary' };
  const start = latin1(head);
  if (!/(^|\n)[ \t]*v[ \t]/.test(start)) return { ok: false, reason: 'The OBJ file has no vertex ("v") lines near its start' };
  // Faces usually follow the vertices, so they are near the end of a large file.
  if (!/(^|\n)[ \t]*f[ \t]/.test(start) && !/(^|\n)[ \t]*f[ \t]/.test(latin1(tail))) {
    return { ok: false, reason: 'The OBJ file has no face ("f") lines' };
  }
  return { ok: true, format: 'obj', variant: 'text' };
}

async function check3mf({ size, head, tail, read }: Probe): Promise<FormatCheck> {
  if (!(head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04)) {
    return { ok: false, reason: 'This is not a 3MF file: 3MF is a ZIP package and this file is not a ZIP' };
  }
  const end = lastIndexOfSignature(tail, 0x06054b50);
  if (end === -1) return { ok: false, reason: 'The 3MF package is truncated: its ZIP directory is missing' };
  const record = view(tail.subarray(end));
  const directorySize = record.getUint32(12, true);
  const directoryOffset = record.getUint32(16, true);
  // ZIP64 packages (over 4 GB or 65,535 entries) keep the real values elsewhere; accept them unchecked.
  if (directoryOffset === 0xffffffff || directorySize === 0xffffffff) return { ok: true, format: '3mf', variant: 'zip' };
  if (directoryOffset + directorySize > size || directorySize > MAX_ZIP_DIRECTORY) {
    return { ok: false, reason: 'The 3MF package is damaged: its ZIP directory points outside the file' };
  }
  const names = zipNames(await read(directoryOffset, directorySize));
  if (!names.some((name) => /\.model$/i.test(name))) return { ok: false, reason: 'The 3MF package has no 3D model part (no .model file inside)' };
  return { ok: true, format: '3mf', variant: 'zip' };
}

function zipNames(directory: Uint8Array): string[] {
  const names: string[] = [];
  const data = view(directory);
  for (let at = 0; at + 46 <= directory.length && data.getUint32(at, true) === 0x02014b50; ) {
    const nameLength = data.getUint16(at + 28, true);
    const skip = data.getUint16(at + 30, true) + data.getUint16(at + 32, true);
    names.push(latin1(directory.subarray(at + 46, at + 46 + nameLength)));
    at += 46 + nameLength + skip;
  }
  return names;
}

function lastIndexOfSignature(bytes: Uint8Array, signature: number): number {
  const data = view(bytes);
  for (let at = bytes.length - 22; at >= 0; at--) if (data.getUint32(at, true) === signature) return at;
  return -1;
}

/** Text means no NUL bytes and few other control characters (tabs and line ends are fine). */
function isText(bytes: Uint8Array): boolean {
  let odd = 0;
  for (const byte of bytes) {
    if (byte === 0) return false;
    if (byte < 9 || (byte > 13 && byte < 32)) odd++;
  }
  return odd <= bytes.length / 100;
}

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 8192) text += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return text;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
