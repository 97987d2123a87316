// The facts of a binary STL read in parts, for `printdesk inspect`: the positions are never held whole.
// One pass measures (volume, area, the box) and welds the corners by their bits, part by part; the
// points so welded are then joined by the grid's cells, which the box sets. Only the corners' ids stay,
// then the edge lists. A 1M-triangle file is 50 MB: held whole with its positions, it set the command's
// peak memory, where its parts take a megabyte. Anything unusual (a count that lies, a coordinate that
// is not a number, nothing with area) is left to the reader of the whole file, which says exactly what
// and where.
import { checkMeasured, factsOfWelded } from './facts.ts';
import { MeasureSum, type Measures } from './measure.ts';
import { binaryStlCountProblem, STL_FACET_BYTES, STL_HEADER_BYTES } from './stl-binary.ts';
import { gatherAndMeasure } from './stl-binary-measure.ts';
import type { ModelFacts, RawMesh } from './types.ts';
import { DEFAULT_MAX_TRIANGLES } from './types.ts';
import { cellsOn } from './weld.ts';
import { WordWelder } from './weld-words.ts';
import { grouped } from './errors.ts';

/** Reads the file's bytes at `offset` into `into`, returning how many were read. */
export type ReadInto = (offset: number, into: Uint8Array) => number;

const PART_FACETS = 16_384;
/**
 * The first part is small, so that each function the parts go through runs to its end once before V8
 * compiles its loop: the compiled loop then knows what follows it. Without this, the loops compiled
 * during the first part bailed out at their end in every part after (120 times in a 1M-triangle file).
 */
const FIRST_PART_FACETS = 64;
/**
 * Each part after the first is this many times the one before, up to PART_FACETS: the functions the parts
 * go through are called a few more times while V8 compiles them, and a process's first 1M-triangle file
 * took 8 ms less here (133 ms against 141, medians of 6; its second, compiled already, 99 ms either way).
 */
const PART_GROWTH = 4;

/**
 * The facts of a binary STL of `size` bytes whose first 84 are `head`, or null when it should be read
 * whole: it is not one by its size, or something in it needs the whole file's reader to say.
 */
export function binaryStlFactsInParts(head: Uint8Array, size: number, readInto: ReadInto): ModelFacts | null {
  // As detectFormat decides: a ZIP is a 3MF whatever its count says.
  if (head.length < STL_HEADER_BYTES || (head[0] === 0x50 && head[1] === 0x4b && head[2] === 3 && head[3] === 4)) return null;
  const facets = (head[80] | (head[81] << 8) | (head[82] << 16) | (head[83] << 24)) >>> 0;
  if (facets === 0 || facets > DEFAULT_MAX_TRIANGLES || binaryStlCountProblem(size, facets)) return null;
  const read = measureAndWeld(facets, readInto);
  if (!read) return null;
  const trailing = size - (STL_HEADER_BYTES + STL_FACET_BYTES * facets);
  const warnings = trailing > 0 ? [trailing === 1 ? '1 trailing byte after the last facet was ignored.' : `${grouped(trailing)} trailing bytes after the last facet were ignored.`] : [];
  const mesh: RawMesh = { declaredUnit: null, warnings };
  try {
    checkMeasured(mesh, facets, read.measures);
  } catch {
    return null;
  }
  // Points whose bits differ but whose cells of the weld's grid (known now the box is) are one are joined
  // with the window's repeats; all the weld's memory then holds the topology's arrays.
  const { unique } = read.welder.result(cellsOn(read.measures));
  return factsOfWelded(mesh, facets, read.measures, read.ids, unique, read.welder.memory());
}

/**
 * One pass over the facets: each part is measured and welded (by its bits, which need no box) while in
 * cache. Null when the file ends early or holds a coordinate that is not a number.
 */
function measureAndWeld(facets: number, readInto: ReadInto): { measures: Measures; ids: Int32Array; welder: WordWelder } | null {
  // Each part is read after room for a header, where gatherAndMeasure() reads a file's first facet from.
  const raw = new Uint8Array(STL_HEADER_BYTES + PART_FACETS * STL_FACET_BYTES);
  const part = new Float32Array(PART_FACETS * 9);
  const bits = new Int32Array(part.buffer);
  const view = new DataView(raw.buffer);
  const sum = new MeasureSum();
  // About half as many points as triangles in a closed mesh; the weld's keys grow for more.
  const ids = new Int32Array(facets * 3);
  const welder = new WordWelder(facets / 2, ids);
  for (let first = 0, size = FIRST_PART_FACETS; first < facets; size = Math.min(size * PART_GROWTH, PART_FACETS)) {
    const count = Math.min(size, facets - first);
    const length = count * STL_FACET_BYTES;
    if (readInto(STL_HEADER_BYTES + first * STL_FACET_BYTES, raw.subarray(STL_HEADER_BYTES, STL_HEADER_BYTES + length)) !== length) return null;
    gatherAndMeasure(view, part, 0, count, sum);
    if (sum.firstNonFinite >= 0) return null;
    welder.add(bits, count * 3);
    first += count;
  }
  return { measures: sum.result(), ids, welder };
}
