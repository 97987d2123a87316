// The facts of a binary STL read in parts, for `printdesk inspect`: the positions are never held whole.
// One pass measures (the box the weld's grid needs, volume, area), a second welds the corners part by
// part; only their ids stay, then the edge lists. A 1M-triangle file is 50 MB: held whole with its
// positions, it set the command's peak memory, where its parts take a megabyte. Anything unusual (a count
// that lies, a coordinate that is not a number, nothing with area) is left to the reader of the whole
// file, which says exactly what and where.
import { checkMeasured, factsOfWelded } from './facts.ts';
import { MeasureSum } from './measure.ts';
import { binaryStlCountProblem, STL_FACET_BYTES, STL_HEADER_BYTES } from './stl-binary.ts';
import type { ModelFacts, RawMesh } from './types.ts';
import { DEFAULT_MAX_TRIANGLES } from './types.ts';
import { partWelder } from './weld.ts';
import { grouped } from './errors.ts';

/** Reads the file's bytes at `offset` into `into`, returning how many were read. */
export type ReadInto = (offset: number, into: Uint8Array) => number;

const PART_FACETS = 16_384;

/**
 * The facts of a binary STL of `size` bytes whose first 84 are `head`, or null when it should be read
 * whole: it is not one by its size, or something in it needs the whole file's reader to say.
 */
export function binaryStlFactsInParts(head: Uint8Array, size: number, read: ReadInto): ModelFacts | null {
  // As detectFormat decides: a ZIP is a 3MF whatever its count says.
  if (head.length < STL_HEADER_BYTES || (head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4)) return null;
  const facets = (head[80] | (head[81] << 8) | (head[82] << 16) | (head[83] << 24)) >>> 0;
  if (facets === 0 || facets > DEFAULT_MAX_TRIANGLES || binaryStlCountProblem(size, facets)) return null;
  const raw = new Uint8Array(PART_FACETS * STL_FACET_BYTES);
  const part = new Float32Array(PART_FACETS * 9);
  const view = new DataView(raw.buffer);
  /** Reads facets [first, first + count) into `part`; false when the file ends early. */
  const readPart = (first: number, count: number): boolean => {
    const length = count * STL_FACET_BYTES;
    if (read(STL_HEADER_BYTES + first * STL_FACET_BYTES, raw.subarray(0, length)) !== length) return false;
    for (let f = 0, at = 12; f < count; f++, at += STL_FACET_BYTES) for (let k = 0; k < 9; k++) part[f * 9 + k] = view.getFloat32(at + k * 4, true);
    return true;
  };
  const sum = new MeasureSum();
  for (let first = 0; first < facets; first += PART_FACETS) {
    const count = Math.min(PART_FACETS, facets - first);
    if (!readPart(first, count)) return null;
    sum.add(part, 0, count);
    if (sum.firstNonFinite >= 0) return null;
  }
  const measures = sum.result();
  const trailing = size - (STL_HEADER_BYTES + STL_FACET_BYTES * facets);
  const warnings = trailing > 0 ? [trailing === 1 ? '1 trailing byte after the last facet was ignored.' : `${grouped(trailing)} trailing bytes after the last facet were ignored.`] : [];
  const mesh: RawMesh = { declaredUnit: null, warnings };
  try {
    checkMeasured(mesh, facets, measures);
  } catch {
    return null;
  }
  const welder = partWelder(facets / 2, measures);
  const ids = new Int32Array(facets * 3);
  for (let first = 0; first < facets; first += PART_FACETS) {
    const count = Math.min(PART_FACETS, facets - first);
    if (!readPart(first, count)) return null;
    welder.add(part, count * 3, ids, first * 3);
  }
  const { unique } = welder.result(ids);
  return factsOfWelded(mesh, facets, measures, ids, unique);
}
