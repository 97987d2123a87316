// Welding, edge use and shells. Typed arrays only: no Map, no strings, no per-item objects. Edges are
// grouped per vertex (a counting sort) rather than hashed, because scanning each vertex's short list is
// cache-friendly where a hash table over millions of edges is one cache miss per edge.

export interface Topology {
  openEdges: number;
  nonManifoldEdges: number;
  inconsistentEdges: number;
  shells: number;
  /** 6 floats per open edge, when asked for. */
  boundary?: Float32Array;
}

/** Most open edges worth drawing; beyond this the highlight is noise and the memory is not. */
const MAX_BOUNDARY_SEGMENTS = 1_000_000;
/** Lists longer than this are sorted instead of compared pairwise, so a fan of a million triangles stays linear-ish. */
const SHORT_LIST = 24;

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

function boxOf(points: Float32Array, count: number): Box {
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let p = 0; p < count * 3; p += 3) {
    const x = points[p], y = points[p + 1], z = points[p + 2];
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
    if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
  }
  return { min: [minX, minY, minZ], max: [maxX, maxY, maxZ] };
}

/** Grid origin and scale for quantizing points inside `box`. */
function quantizer({ min, max }: Box): Grid {
  const diagonal = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return { minX: min[0], minY: min[1], minZ: min[2], inverseQuantum: diagonal > 0 ? 2 ** 22 / diagonal : 1 };
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

/**
 * Gives every point an id shared by all points at the same quantized position. The grid is 2^-22 of the
 * bounding box diagonal (about float32 resolution at the model's scale), so it works for a model in metres
 * as well as one in microns. Ids are handed out in file order. `box`, when given, must contain every point.
 */
export function weld(points: Float32Array, expectedUnique: number, box?: Box): Welded {
  const count = Math.floor(points.length / 3);
  // A caller that measured the points already knows their box; it must hold every point.
  const grid = quantizer(box ?? boxOf(points, count));
  return new Welder(grid, Math.max(16, Math.min(count, Math.ceil(expectedUnique)))).weld(points, count);
}

/**
 * Points are keyed a block at a time, then looked up: the float arithmetic and the branchy probing each
 * run as their own tight loop (measured 15–20% faster than one loop doing both).
 */
const BLOCK = 64;

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
    this.table = new Int32Array(nextPowerOfTwo(expected * 2)).fill(-1);
    this.keys = new Int32Array(this.table.length * 3 / 2);
    this.firstPoint = new Int32Array(this.table.length / 2);
  }

  weld(points: Float32Array, count: number): Welded {
    const { minX, minY, minZ, inverseQuantum } = this.grid;
    const ids = new Int32Array(count);
    const block = new Int32Array(BLOCK * 4);
    let { keys, firstPoint, table, unique } = this;
    let mask = table.length - 1;
    for (let from = 0; from < count; from += BLOCK) {
      const to = Math.min(count, from + BLOCK);
      // Slots are kept unmasked here: the table may double within the block.
      for (let i = from, b = 0, p = from * 3; i < to; i++, b += 4, p += 3) {
        const x = ((points[p] - minX) * inverseQuantum + 0.5) | 0;
        const y = ((points[p + 1] - minY) * inverseQuantum + 0.5) | 0;
        const z = ((points[p + 2] - minZ) * inverseQuantum + 0.5) | 0;
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
    return { ids, firstPoint, unique };
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

function find(parent: Int32Array, v: number): number {
  while (parent[v] !== v) {
    parent[v] = parent[parent[v]];
    v = parent[v];
  }
  return v;
}

function union(parent: Int32Array, a: number, b: number): void {
  const ra = find(parent, a), rb = find(parent, b);
  if (ra !== rb) parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
}

interface EdgeCounts {
  open: number;
  nonManifold: number;
  inconsistent: number;
  /** Open edges as pairs of vertex ids, when asked for. */
  openPairs: number[] | null;
}

/**
 * Each vertex's edges to higher-numbered vertices (a counting sort by the lower end), encoded as
 * other·2 + (1 if the triangle walked it downwards). Triangles that collapse to a line or a point add no
 * edges (they are counted as degenerate elsewhere) but still join their vertices into one shell. Shells are
 * joined here too, per triangle: in file order, which keeps the union-find's walks short.
 */
function edgeLists(cornerIds: Int32Array, vertexCount: number, parent: Int32Array, loose: Uint8Array): { start: Int32Array; list: Int32Array } {
  const corners = cornerIds.length - (cornerIds.length % 3);
  const start = new Int32Array(vertexCount + 1);
  for (let t = 0; t < corners; t += 3) {
    const a = cornerIds[t], b = cornerIds[t + 1], c = cornerIds[t + 2];
    union(parent, a, b);
    union(parent, a, c);
    if (a === b || b === c || a === c) {
      loose[a] = loose[b] = loose[c] = 1;
      continue;
    }
    start[(a < b ? a : b) + 1]++;
    start[(b < c ? b : c) + 1]++;
    start[(c < a ? c : a) + 1]++;
  }
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const list = new Int32Array(start[vertexCount]);
  // Filled from each list's end down, so `start` needs no copy as a cursor.
  const end = start.subarray(1);
  for (let t = 0; t < corners; t += 3) {
    const a = cornerIds[t], b = cornerIds[t + 1], c = cornerIds[t + 2];
    if (a === b || b === c || a === c) continue;
    if (a < b) list[--end[a]] = b << 1;
    else list[--end[b]] = (a << 1) | 1;
    if (b < c) list[--end[b]] = c << 1;
    else list[--end[c]] = (b << 1) | 1;
    if (c < a) list[--end[c]] = a << 1;
    else list[--end[a]] = (c << 1) | 1;
  }
  // Each cursor moved from its list's end back to its start, one slot to the right of where it belongs.
  start.copyWithin(0, 1);
  start[vertexCount] = list.length;
  return { start, list };
}

/**
 * Tallies one vertex's list: equal `other` values are the same edge, and the low bits say which way each
 * triangle walked it. Long lists (fans) are sorted first so the scan stays linear-ish.
 */
function countList(list: Int32Array, from: number, to: number, vertex: number, counts: EdgeCounts): void {
  const sorted = to - from > SHORT_LIST;
  if (sorted) list.subarray(from, to).sort();
  for (let i = from; i < to; i++) {
    const other = list[i] >> 1;
    if (other < 0) continue;
    let uses = 1, direction = list[i] & 1 ? -1 : 1;
    for (let j = i + 1; j < to; j++) {
      if (list[j] >> 1 !== other) {
        if (sorted) break;
        continue;
      }
      uses++;
      direction += list[j] & 1 ? -1 : 1;
      list[j] = -2;
    }
    if (uses === 1) {
      counts.open++;
      if (counts.openPairs && counts.openPairs.length < MAX_BOUNDARY_SEGMENTS * 2) counts.openPairs.push(vertex, other);
    } else if (uses > 2) counts.nonManifold++;
    else if (direction !== 0) counts.inconsistent++;
  }
}

/**
 * Counts how each undirected edge is used, and the shells. `cornerIds` holds 3 welded vertex ids per
 * triangle. A shell's root is its lowest vertex (unions keep the lower root), and that vertex has an edge
 * to every neighbour in its own list: so a root with an empty list and no degenerate triangle is a vertex
 * no triangle uses.
 */
export function analyse(cornerIds: Int32Array, vertexCount: number, pointOf: (id: number, out: Float32Array, at: number) => void, wantBoundary: boolean): Topology {
  const parent = new Int32Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) parent[v] = v;
  const loose = new Uint8Array(vertexCount);
  const { start, list } = edgeLists(cornerIds, vertexCount, parent, loose);
  const counts: EdgeCounts = { open: 0, nonManifold: 0, inconsistent: 0, openPairs: wantBoundary ? [] : null };
  for (let v = 0; v < vertexCount; v++) if (start[v + 1] > start[v]) countList(list, start[v], start[v + 1], v, counts);

  let shells = 0;
  for (let v = 0; v < vertexCount; v++) if (parent[v] === v && (start[v + 1] > start[v] || loose[v])) shells++;

  let boundary: Float32Array | undefined;
  if (counts.openPairs) {
    const pairs = counts.openPairs;
    boundary = new Float32Array(pairs.length * 3);
    for (let k = 0; k < pairs.length; k++) pointOf(pairs[k], boundary, k * 3);
  }
  return { openEdges: counts.open, nonManifoldEdges: counts.nonManifold, inconsistentEdges: counts.inconsistent, shells, boundary };
}
