// What the service checks of a model file it has received (docs/api-assumptions.md, "Upload of a model"): the
// content, cheaply and by structure, not by its name. Binary STL by its size, ASCII STL by solid … endsolid, OBJ
// as text with v and f lines, 3MF as a ZIP whose directory holds a .model part. Geometry is not parsed, and a 3MF
// is not held to the 3MF specification: a service stricter than the real one would hide files it takes.
// The sandbox's own code, never the client's: a bug shared by the client and its test peer no test can catch.
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { MODEL_FORMATS, modelFormatOf } from './store/models.ts';
import type { ModelFormat } from './store/models.ts';

export type ModelCheck = { ok: true; format: ModelFormat } | { ok: false; reason: string };

interface Received {
  size: number;
  /** the first 64 KiB */
  head: Buffer;
  /** the last bytes, enough to hold a ZIP end record and its longest comment */
  tail: Buffer;
  file: FileHandle;
}

const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 22 + 65_535;
const MAX_ZIP_DIRECTORY = 4 * 1024 * 1024;
const STL_HEADER = 84;
const STL_FACET = 50;
const FORMAT_NAMES: Record<ModelFormat, string> = { stl: 'STL', obj: 'OBJ', '3mf': '3MF' };
/** Files sent by mistake, told by how they begin (as latin1), so that the refusal says what was sent. */
const OTHER_FILES: readonly (readonly [start: string, what: string])[] = [
  ['\x89PNG\r\n\x1a\n', 'a PNG image'],
  ['\xff\xd8\xff', 'a JPEG image'],
  ['GIF8', 'a GIF image'],
  ['%PDF-', 'a PDF document'],
  ['PK\x03\x04', 'a ZIP archive'],
  ['\xd0\xcf\x11\xe0', 'an old Office document (.xls or .doc)'],
  ['\x1f\x8b', 'a gzip archive'],
  ["7z\xbc\xaf'\x1c", 'a 7-Zip archive'],
  ['Rar!\x1a\x07', 'a RAR archive'],
  ['ISO-10303-21', 'a STEP CAD file'],
];

/** Whether the received `file` holds the format its `fileName` claims, with a reason the sender can act on. */
export async function checkReceivedFile(file: string, fileName: string, size: number): Promise<ModelCheck> {
  const claimed = modelFormatOf(fileName);
  if (!claimed) return refuse('The file name must end in .stl, .obj or .3mf');
  if (size === 0) return refuse('The file is empty');
  const handle = await open(file, 'r');
  try {
    const head = await readAt(handle, 0, Math.min(size, HEAD_BYTES));
    const tail = await readAt(handle, Math.max(0, size - TAIL_BYTES), Math.min(size, TAIL_BYTES));
    return await checkAs(claimed, { size, head, tail, file: handle });
  } finally {
    await handle.close();
  }
}

async function checkAs(claimed: ModelFormat, received: Received): Promise<ModelCheck> {
  const own = await CHECKS[claimed](received);
  if (own.ok) return own;
  for (const other of MODEL_FORMATS) {
    if (other !== claimed && (await CHECKS[other](received)).ok) {
      return refuse(`The file is named .${claimed} but its content is ${FORMAT_NAMES[other]}`);
    }
  }
  // A ZIP named .3mf is a damaged 3MF: the 3MF check's own reason says more.
  const start = received.head.toString('latin1', 0, 16);
  const other = claimed === '3mf' ? undefined : OTHER_FILES.find(([magic]) => start.startsWith(magic));
  if (!other) return own;
  return refuse(`This is ${other[1]}, not an ${FORMAT_NAMES[claimed]} model. Export or save the model as STL, OBJ or 3MF and upload that file.`);
}

const CHECKS: Record<ModelFormat, (received: Received) => ModelCheck | Promise<ModelCheck>> = { stl: checkStl, obj: checkObj, '3mf': check3mf };

function checkStl({ size, head, tail }: Received): ModelCheck {
  // Binary first, told by its size: some binary files begin their header with "solid" too.
  const facets = size >= STL_HEADER ? head.readUInt32LE(80) : -1;
  const countProblem = facets > 0 ? facetCountProblem(size, facets) : undefined;
  if (facets > 0 && !countProblem) return { ok: true, format: 'stl' };
  const start = head.subarray(0, 512);
  if (/^\s*solid\b/i.test(start.toString('latin1')) && isText(start)) {
    if (/endsolid/i.test(tail.subarray(-1024).toString('latin1'))) return { ok: true, format: 'stl' };
    if (isText(head)) return refuse('The ASCII STL ends early: there is no "endsolid" at its end');
  }
  if (size < STL_HEADER) return refuse(`The file is too short for a binary STL (${size} bytes; the header alone is 84)`);
  return refuse(countProblem ?? 'The binary STL has no triangles');
}

/**
 * A binary STL is 84 bytes and 50 per facet its header declares. Fewer bytes are refused; more are taken,
 * unless they are whole facets the count left out.
 */
function facetCountProblem(size: number, facets: number): string | undefined {
  const needed = STL_HEADER + STL_FACET * facets;
  const held = (size - STL_HEADER) / STL_FACET;
  if (size < needed && Number.isInteger(held)) {
    return `The header declares ${count(facets)} facets but the file holds ${count(held)} (${count(size)} bytes; ${count(needed)} needed)`;
  }
  if (size < needed) {
    return `The file is truncated: the header declares ${count(facets)} facets (${count(needed)} bytes) but it ends after ${count(size)} bytes, inside facet ${count(Math.floor(held) + 1)}`;
  }
  const extra = size - needed;
  if (extra < STL_FACET || extra % STL_FACET !== 0) return undefined;
  return `The header declares ${count(facets)} facets but the file holds ${count(facets + extra / STL_FACET)} (${count(extra)} more bytes than declared)`;
}

function checkObj({ head, tail }: Received): ModelCheck {
  if (!isText(head.subarray(0, 4096))) return refuse('This is not an OBJ file: OBJ is text and this file is binary');
  const start = head.toString('latin1');
  if (!/(^|\n)[ \t]*v[ \t]/.test(start)) return refuse('The OBJ file has no vertex ("v") lines near its start');
  // Faces usually follow the vertices, so in a large file they are near its end.
  const faces = /(^|\n)[ \t]*f[ \t]/;
  if (!faces.test(start) && !faces.test(tail.toString('latin1'))) return refuse('The OBJ file has no face ("f") lines');
  return { ok: true, format: 'obj' };
}

async function check3mf({ size, head, tail, file }: Received): Promise<ModelCheck> {
  if (head.toString('latin1', 0, 4) !== 'PK\x03\x04') return refuse('This is not a 3MF file: 3MF is a ZIP package and this file is not a ZIP');
  const end = tail.length < 22 ? -1 : tail.lastIndexOf('PK\x05\x06', tail.length - 22, 'latin1');
  if (end === -1) return refuse('The 3MF package is truncated: its ZIP directory is missing');
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  // A ZIP64 package (over 4 GB or 65,535 entries) keeps the true values elsewhere: taken unchecked.
  if (directoryOffset === 0xffffffff || directorySize === 0xffffffff) return { ok: true, format: '3mf' };
  if (directoryOffset + directorySize > size || directorySize > MAX_ZIP_DIRECTORY) {
    return refuse('The 3MF package is damaged: its ZIP directory points outside the file');
  }
  const names = zipEntryNames(await readAt(file, directoryOffset, directorySize));
  if (!names.some((name) => /\.model$/i.test(name))) return refuse('The 3MF package has no 3D model part (no .model file inside)');
  return { ok: true, format: '3mf' };
}

/** The names in a ZIP central directory, up to the first entry that is not one. */
function zipEntryNames(directory: Buffer): string[] {
  const names: string[] = [];
  let at = 0;
  while (at + 46 <= directory.length && directory.readUInt32LE(at) === 0x02014b50) {
    const nameEnd = at + 46 + directory.readUInt16LE(at + 28);
    names.push(directory.toString('latin1', at + 46, nameEnd));
    at = nameEnd + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  return names;
}

/** Text: no NUL byte, and control characters other than tabs and line ends in at most 1 byte of 100. */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  let controls = 0;
  for (const byte of bytes) if (byte < 9 || (byte > 13 && byte < 32)) controls++;
  return controls <= bytes.length / 100;
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}

function refuse(reason: string): ModelCheck {
  return { ok: false, reason };
}
