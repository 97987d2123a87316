import { grouped, ModelParseError } from './errors.ts';
import { MEASURE_SLICE, MeasureSum } from './measure.ts';
import { gatherAndMeasure } from './stl-binary-measure.ts';
import type { ParseOptions, RawMesh } from './types.ts';
import { DEFAULT_MAX_TRIANGLES } from './types.ts';

export const STL_HEADER_BYTES = 84;
export const STL_FACET_BYTES = 50;

/** The facet count a binary header declares, or -1 when the file is too short to have one. */
export function declaredFacets(bytes: Uint8Array): number {
  if (bytes.length < STL_HEADER_BYTES) return -1;
  return (bytes[80] | (bytes[81] << 8) | (bytes[82] << 16) | (bytes[83] << 24)) >>> 0;
}

/**
 * What is wrong with a binary STL of `size` bytes that declares `facets`, or null. Fewer bytes than
 * declared: truncated, or a count that lies upwards when the file ends exactly on a facet boundary. More:
 * real files carry trailing bytes, accepted unless they hold whole facets the count left out (a lying
 * count). Shared with the quick check before an upload, so the two never disagree on a file.
 */
export function binaryStlCountProblem(size: number, facets: number): ModelParseError | null {
  const expected = STL_HEADER_BYTES + STL_FACET_BYTES * facets;
  const present = (size - STL_HEADER_BYTES) / STL_FACET_BYTES;
  if (size < expected) {
    if (Number.isInteger(present)) {
      return new ModelParseError('BAD_COUNT', `The header declares ${grouped(facets)} facets but the file holds ${grouped(present)} (${grouped(size)} bytes; ${grouped(expected)} needed).`, { offset: 80 });
    }
    const lastWhole = Math.floor(present);
    return new ModelParseError('TRUNCATED', `The file is truncated: the header declares ${grouped(facets)} facets (${grouped(expected)} bytes) but it ends after ${grouped(size)} bytes, inside facet ${grouped(lastWhole + 1)}.`, { offset: size });
  }
  const trailing = size - expected;
  if (trailing >= STL_FACET_BYTES && trailing % STL_FACET_BYTES === 0) {
    return new ModelParseError('BAD_COUNT', `The header declares ${grouped(facets)} facets but the file holds ${grouped(facets + trailing / STL_FACET_BYTES)} (${grouped(trailing)} more bytes than declared).`, { offset: 80 });
  }
  return null;
}

function checkCount(bytes: Uint8Array, facets: number, warnings: string[]): void {
  const problem = binaryStlCountProblem(bytes.length, facets);
  if (problem) throw problem;
  const trailing = bytes.length - (STL_HEADER_BYTES + STL_FACET_BYTES * facets);
  if (trailing > 0) warnings.push(trailing === 1 ? '1 trailing byte after the last facet was ignored.' : `${grouped(trailing)} trailing bytes after the last facet were ignored.`);
}

/** Progress every 2^18 facets: a multiple of the measuring slice. */
const PROGRESS_FACETS = 1 << 18;

/**
 * Positions only (normals are recomputed by the viewer's shader), measured slice by slice while they are
 * in cache. When the caller owns the bytes they become the positions' buffer: no allocation the size of
 * the model, and the pages are already mapped (the copy into a fresh array was half the read time).
 */
export function parseBinaryStl(bytes: Uint8Array, options: ParseOptions): RawMesh {
  const facets = declaredFacets(bytes);
  if (facets < 0) throw new ModelParseError('TRUNCATED', `A binary STL needs an 84-byte header; the file has ${grouped(bytes.length)} bytes.`, { offset: bytes.length });
  const warnings: string[] = [];
  checkCount(bytes, facets, warnings);
  const limit = options.maxTriangles ?? DEFAULT_MAX_TRIANGLES;
  if (facets > limit) throw new ModelParseError('TOO_LARGE', `${grouped(facets)} triangles is more than the ${grouped(limit)} this app handles.`, { offset: 80 });
  const inPlace = options.bytesOwned === true && bytes.byteOffset % 4 === 0;
  const positions = inPlace ? new Float32Array(bytes.buffer, bytes.byteOffset, facets * 9) : new Float32Array(facets * 9);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const sum = new MeasureSum();
  for (let first = 0; first < facets && sum.firstNonFinite < 0; first += MEASURE_SLICE) {
    const last = Math.min(facets, first + MEASURE_SLICE);
    gatherAndMeasure(view, positions, first, last, sum);
    if (last % PROGRESS_FACETS === 0 && last < facets) options.onProgress?.(last / facets);
  }
  return {
    positions,
    measures: sum.result(),
    declaredUnit: null,
    warnings,
    locateTriangle: (triangle, coordinate) => ({ offset: STL_HEADER_BYTES + triangle * STL_FACET_BYTES + 12 + coordinate * 4 }),
  };
}
