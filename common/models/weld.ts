// Welding: one id for all the points at the same place, so that triangles read as a soup (STL) or from a
// vertex table with repeated points share their corners. Typed arrays only: no Map, no strings, no
// per-point objects.
import { BitsWelder, type BitsWelded } from './weld-bits.ts';

function nextPowerOfTwo(n: number): number {
  let size = 16;
  while (size < n) size *= 2;
  return size;
}

interface Grid {
  minX: number;
  minY: number;
  minZ: number;
  inverseQuantum: number;
}

export interface Box {
  min: readonly number[];
  max: readonly number[];
}

/** Grid origin and scale for quantizing points inside `box`. */
function quantizer({ min, max }: Box): Grid {
  const diagonal = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return { minX: min[0], minY: min[1], minZ: min[2], inverseQuantum: diagonal > 0 ? 2 ** 22 / diagonal : 1 };
}

/** A coordinate's cell on the grid along one axis. */
function cell(value: number, min: number, inverseQuantum: number): number {
  return ((value - min) * inverseQuantum + 0.5) | 0;
}

/** Multiplicative mixing with a final shift: grid keys are highly regular, and a plain xor of products clusters them. */
function hashOf(x: number, y: number, z: number): number {
  const h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d);
  return h ^ (h >>> 16);
}

interface Welded {
  ids: Int32Array;
  firstPoint: Int32Array;
  unique: number;
}

/** Corners welded: each corner's id, and each id's point. */
export interface WeldedCorners {
  ids: Int32Array;
  /** 3 floats per id: the point of its first corner. */
  points: Float32Array;
  unique: number;
}

/**
 * Gives every corner of a soup an id shared by all corners at the same quantized position. The grid is
 * 2^-22 of the bounding box diagonal (about float32 resolution at the model's scale), so it works for a
 * model in metres as well as one in microns. Ids are handed out in file order. `box` (the measured one)
 * holds every point. The corners are welded by their bits first (see weld-bits.ts), then the unique
 * points by cell: the same ids as welding every corner by its cell. The soup is not read afterwards.
 */
export function weld(points: Float32Array, expectedUnique: number, box: Box): WeldedCorners {
  const count = Math.floor(points.length / 3);
  const welder = new BitsWelder(Math.min(count, expectedUnique));
  const ids = new Int32Array(count);
  welder.add(new Int32Array(points.buffer, points.byteOffset, count * 3), count, ids, 0);
  return joinByCell(ids, welder.result(), box);
}

/**
 * Corners welded by their bits, joined where their points share a cell of the grid over `box`: `ids`
 * (bits ids on entry) become the cell's, in the order the cells first come in the file, as weld() by
 * cell would hand them out.
 */
export function joinByCell(ids: Int32Array, welded: BitsWelded, box: Box): WeldedCorners {
  const joined = weldTable(welded.points, box);
  if (!joined) return { ids, points: welded.points, unique: welded.unique };
  // Ids by bits are in the order of their first corners, so the first of a cell's is its first in the file.
  for (let i = 0; i < ids.length; i++) ids[i] = joined.ids[ids[i]];
  const points = new Float32Array(joined.unique * 3);
  for (let id = 0; id < joined.unique; id++) points.set(welded.points.subarray(joined.firstPoint[id] * 3, joined.firstPoint[id] * 3 + 3), id * 3);
  return { ids, points, unique: joined.unique };
}

/**
 * The weld of a vertex table, or null when no two of its points share a place: the usual table, which is
 * then told apart without the weld's table (see hasRepeats). The grid is the triangles' box, not the
 * table's: one unused vertex far away would otherwise coarsen the grid until whole triangles collapse.
 * Unused points outside the box may get keys that wrap around; sharing one with a used point changes
 * no count.
 */
export function weldTable(points: Float32Array, box: Box): Welded | null {
  const count = Math.floor(points.length / 3);
  const grid = quantizer(box);
  if (!hasRepeats(points, count, grid)) return null;
  return new Welder(grid, count).weld(points, count);
}

/** Bits of the hash bitset per point: a point's hash then collides with an earlier one's at most 1 time in 16. */
const BITS_PER_POINT = 16;

/**
 * Whether two points share a quantized position. Each point's hash marks a bit in a bitset that fits the
 * L2 cache, where the weld's table does not; only points whose hash was marked twice (a few percent, mostly
 * hash collisions) are welded, to tell a repeated point from a collision. For 500K distinct points: about
 * 12 ms, against the weld's 40. Many collisions mean real repeats: the caller welds them all anyway.
 */
function hasRepeats(points: Float32Array, count: number, grid: Grid): boolean {
  const { minX, minY, minZ, inverseQuantum } = grid;
  const size = Math.min(2 ** 28, Math.max(32, nextPowerOfTwo(count * BITS_PER_POINT)));
  const mask = size - 1;
  const bits = new Int32Array(size >>> 4);
  const seen = bits.subarray(0, size >>> 5);
  const twice = bits.subarray(size >>> 5);
  const enough = Math.max(64, count / 8);
  let collisions = 0;
  for (let p = 0; p < count * 3 && collisions < enough; p += 3) {
    const h = hashOf(cell(points[p], minX, inverseQuantum), cell(points[p + 1], minY, inverseQuantum), cell(points[p + 2], minZ, inverseQuantum)) & mask;
    const word = h >>> 5, bit = 1 << (h & 31);
    if ((seen[word] & bit) === 0) seen[word] |= bit;
    else {
      twice[word] |= bit;
      collisions++;
    }
  }
  if (collisions === 0) return false;
  if (collisions >= enough) return true;
  // Every point of a hash seen k times is a suspect: k ≤ 2·(k - 1) suspects per k - 1 collisions.
  const suspects = new Float32Array(Math.min(count, collisions * 2) * 3);
  let n = 0;
  for (let p = 0; p < count * 3; p += 3) {
    const h = hashOf(cell(points[p], minX, inverseQuantum), cell(points[p + 1], minY, inverseQuantum), cell(points[p + 2], minZ, inverseQuantum)) & mask;
    if ((twice[h >>> 5] & (1 << (h & 31))) === 0) continue;
    suspects[n * 3] = points[p];
    suspects[n * 3 + 1] = points[p + 1];
    suspects[n * 3 + 2] = points[p + 2];
    n++;
  }
  return new Welder(grid, n).weld(suspects, n).unique < n;
}

/**
 * Points are keyed a block at a time, then looked up: the float arithmetic and the branchy probing each
 * run as their own tight loop (measured 15–20% faster than one loop doing both).
 */
const BLOCK = 64;
/** The block's keys and hashes: scratch shared by every weld, which runs to the end once begun. */
const block = new Int32Array(BLOCK * 4);

/**
 * The table holds ids only and the keys live in id order beside it, so a probe touches a small table and
 * a key written recently (neighbouring triangles share corners). The table is sized to the caller's
 * estimate, at most half full, and doubles when it is passed: a table one size too large for the cache
 * cost a quarter of the weld on a 1M-triangle soup, more than a rare doubling does.
 */
class Welder {
  keys: Int32Array;
  firstPoint: Int32Array;
  table: Int32Array;
  unique = 0;
  readonly grid: Grid;

  constructor(grid: Grid, expected: number) {
    this.grid = grid;
    // One allocation for the three: each typed array's own costs about 0.7 µs, most of a small model's weld.
    const size = nextPowerOfTwo(expected * 2);
    const room = new Int32Array(size * 3);
    this.table = room.subarray(0, size).fill(-1);
    this.keys = room.subarray(size, size * 5 / 2);
    this.firstPoint = room.subarray(size * 5 / 2);
  }

  weld(points: Float32Array, count: number): Welded {
    const ids = new Int32Array(count);
    this.add(points, count, ids);
    return this.result(ids);
  }

  /** Welds the first `count` points, writing their ids to `ids`. */
  private add(points: Float32Array, count: number, ids: Int32Array): void {
    const { minX, minY, minZ, inverseQuantum } = this.grid;
    let { keys, firstPoint, table, unique } = this;
    let mask = table.length - 1;
    for (let from = 0; from < count; from += BLOCK) {
      const to = Math.min(count, from + BLOCK);
      // Slots are kept unmasked here: the table may double within the block.
      for (let i = from, b = 0, p = from * 3; i < to; i++, b += 4, p += 3) {
        const x = cell(points[p], minX, inverseQuantum);
        const y = cell(points[p + 1], minY, inverseQuantum);
        const z = cell(points[p + 2], minZ, inverseQuantum);
        block[b] = x;
        block[b + 1] = y;
        block[b + 2] = z;
        block[b + 3] = hashOf(x, y, z);
      }
      for (let i = from, b = 0; i < to; i++, b += 4) {
        const x = block[b], y = block[b + 1], z = block[b + 2];
        let slot = block[b + 3] & mask;
        let id = table[slot];
        while (id !== -1) {
          const k = id * 3;
          if (keys[k] === x && keys[k + 1] === y && keys[k + 2] === z) break;
          slot = (slot + 1) & mask;
          id = table[slot];
        }
        if (id === -1) {
          if (unique === firstPoint.length) {
            this.unique = unique;
            ({ keys, firstPoint, table } = this.grow());
            mask = table.length - 1;
            slot = block[b + 3] & mask;
            while (table[slot] !== -1) slot = (slot + 1) & mask;
          }
          id = unique++;
          table[slot] = id;
          keys[id * 3] = x;
          keys[id * 3 + 1] = y;
          keys[id * 3 + 2] = z;
          firstPoint[id] = i;
        }
        ids[i] = id;
      }
    }
    this.unique = unique;
  }

  result(ids: Int32Array): Welded {
    const { table, firstPoint, unique } = this;
    // A view would keep the table and keys (5 times its size) alive through the topology pass; a copy of
    // the used part frees them. Small tables stay views: the copy would cost more than they hold.
    return { ids, firstPoint: table.length > 65_536 ? firstPoint.slice(0, unique) : firstPoint, unique };
  }

  /** Twice the room: the keys and first points copied, the table built anew from the keys. */
  grow(): this {
    const { keys, firstPoint, unique } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.keys.set(keys);
    this.firstPoint = new Int32Array(firstPoint.length * 2);
    this.firstPoint.set(firstPoint);
    this.table = new Int32Array(this.table.length * 2).fill(-1);
    const mask = this.table.length - 1;
    for (let id = 0; id < unique; id++) {
      let slot = hashOf(keys[id * 3], keys[id * 3 + 1], keys[id * 3 + 2]) & mask;
      while (this.table[slot] !== -1) slot = (slot + 1) & mask;
      this.table[slot] = id;
    }
    return this;
  }
}
