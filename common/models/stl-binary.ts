import { ModelParseError } from './errors.ts';
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
 * Checks the declared count against the size. More bytes than declared: real files carry trailing bytes,
 * accepted with a warning unless they hold whole facets the count left out (a lying count). Fewer: truncated,
 * or a count that lies upwards when the file ends exactly on a facet boundary.
 */
function checkCount(bytes: Uint8Array, facets: number, warnings: string[]): void {
  const expected = STL_HEADER_BYTES + STL_FACET_BYTES * facets;
  const present = (bytes.length - STL_HEADER_BYTES) / STL_FACET_BYTES;
  if (bytes.length < expected) {
    if (Number.isInteger(present)) {
      throw new ModelParseError('BAD_COUNT', `The header declares ${facets} facets but the file holds ${present} (${bytes.length} bytes; ${expected} needed).`, { offset: 80 });
    }
    const lastWhole = Math.floor(present);
    throw new ModelParseError('TRUNCATED', `The file is truncated: the header declares ${facets} facets (${expected} bytes) but it ends after ${bytes.length} bytes, inside facet ${lastWhole + 1}.`, { offset: bytes.length });
  }
  const trailing = bytes.length - expected;
  if (trailing >= STL_FACET_BYTES && trailing % STL_FACET_BYTES === 0) {
    throw new ModelParseError('BAD_COUNT', `The header declares ${facets} facets but the file holds ${facets + trailing / STL_FACET_BYTES} (${trailing} more bytes than declared).`, { offset: 80 });
  }
  if (trailing > 0) warnings.push(`${trailing} trailing bytes after the last facet were ignored.`);
}

/** Positions only (normals are recomputed by the viewer's shader), one exact-size allocation. */
export function parseBinaryStl(bytes: Uint8Array, options: ParseOptions): RawMesh {
  const facets = declaredFacets(bytes);
  if (facets < 0) throw new ModelParseError('TRUNCATED', `A binary STL needs an 84-byte header; the file has ${bytes.length} bytes.`, { offset: bytes.length });
  const warnings: string[] = [];
  checkCount(bytes, facets, warnings);
  const limit = options.maxTriangles ?? DEFAULT_MAX_TRIANGLES;
  if (facets > limit) throw new ModelParseError('TOO_LARGE', `${facets} triangles is more than the ${limit} this app handles.`, { offset: 80 });
  const positions = new Float32Array(facets * 9);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Progress in slices, so the copy loop itself has no test in it.
  const slice = options.onProgress ? 1 << 18 : facets;
  for (let first = 0; first < facets; first += slice) {
    const last = Math.min(facets, first + slice);
    for (let t = first; t < last; t++) {
      const from = STL_HEADER_BYTES + t * STL_FACET_BYTES + 12;
      const to = t * 9;
      for (let k = 0; k < 9; k++) positions[to + k] = view.getFloat32(from + k * 4, true);
    }
    if (last < facets) options.onProgress?.(last / facets);
  }
  return {
    positions,
    declaredUnit: null,
    warnings,
    locateTriangle: (triangle) => ({ offset: STL_HEADER_BYTES + triangle * STL_FACET_BYTES }),
  };
}
