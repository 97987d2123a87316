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

/**
 * Gives every point an id shared by all points at the same quantized position. The grid is 2^-22 of the
 * bounding box diagonal (about float32 resolution at the model's scale), so it works for a model in metres
 * as well as one in microns. Table slots hold the key and the id together: one cache line per probe.
 */
export function weld(points: Float32Array): { ids: Int32Array; firstPoint: Int32Array; unique: number } {
  const count = Math.floor(points.length / 3);
  let minX = Infinity, minY = Infinity, minZ = Infinity, maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  for (let p = 0; p < count * 3; p += 3) {
    const x = points[p], y = points[p + 1], z = points[p + 2];
    if (x < minX) minX = x; if (x > maxX) maxX = x;
    if (y < minY) minY = y; if (y > maxY) maxY = y;
    if (z < minZ) minZ = z; if (z > maxZ) maxZ = z;
  }
  const diagonal = Math.hypot(maxX - minX, maxY - minY, maxZ - minZ);
  const inverseQuantum = diagonal > 0 ? 2 ** 22 / diagonal : 1;
  // Shared corners make unique points about a sixth of the corners in a closed mesh; grow if not.
  let capacity = nextPowerOfTwo(Math.max(16, Math.ceil(count / 2)));
  let table = new Int32Array(capacity * 4).fill(-1);
  let firstPoint = new Int32Array(Math.max(16, capacity >> 1));
  let unique = 0;
  const ids = new Int32Array(count);

  const place = (kx: number, ky: number, kz: number, id: number, into: Int32Array, mask: number) => {
    let slot = (Math.imul(kx, 73856093) ^ Math.imul(ky, 19349663) ^ Math.imul(kz, 83492791)) & mask;
    while (into[slot * 4 + 3] !== -1) slot = (slot + 1) & mask;
    into[slot * 4] = kx;
    into[slot * 4 + 1] = ky;
    into[slot * 4 + 2] = kz;
    into[slot * 4 + 3] = id;
  };

  for (let i = 0, p = 0; i < count; i++, p += 3) {
    const kx = Math.round((points[p] - minX) * inverseQuantum);
    const ky = Math.round((points[p + 1] - minY) * inverseQuantum);
    const kz = Math.round((points[p + 2] - minZ) * inverseQuantum);
    const mask = capacity - 1;
    let slot = (Math.imul(kx, 73856093) ^ Math.imul(ky, 19349663) ^ Math.imul(kz, 83492791)) & mask;
    let id = table[slot * 4 + 3];
    while (id !== -1 && (table[slot * 4] !== kx || table[slot * 4 + 1] !== ky || table[slot * 4 + 2] !== kz)) {
      slot = (slot + 1) & mask;
      id = table[slot * 4 + 3];
    }
    if (id === -1) {
      id = unique++;
      table[slot * 4] = kx;
      table[slot * 4 + 1] = ky;
      table[slot * 4 + 2] = kz;
      table[slot * 4 + 3] = id;
      if (id >= firstPoint.length) {
        const more = new Int32Array(firstPoint.length * 2);
        more.set(firstPoint);
        firstPoint = more;
      }
      firstPoint[id] = i;
      if (unique * 2 > capacity) {
        const old = table;
        capacity *= 2;
        table = new Int32Array(capacity * 4).fill(-1);
        for (let s = 0; s < old.length; s += 4) if (old[s + 3] !== -1) place(old[s], old[s + 1], old[s + 2], old[s + 3], table, capacity - 1);
      }
    }
    ids[i] = id;
  }
  return { ids, firstPoint, unique };
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
}

/**
 * One vertex's edges to higher-numbered vertices, encoded as other·2 + (1 if traversed downwards). Equal
 * `other` values are the same edge; the low bits say which way each triangle walked it.
 */
function countList(list: Int32Array, from: number, to: number, vertex: number, counts: EdgeCounts, onOpen: (a: number, b: number) => void): void {
  if (to - from > SHORT_LIST) list.subarray(from, to).sort();
  const sorted = to - from > SHORT_LIST;
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
      onOpen(vertex, other);
    } else if (uses > 2) counts.nonManifold++;
    else if (direction !== 0) counts.inconsistent++;
  }
}

/**
 * Counts how each undirected edge is used. `cornerIds` holds 3 welded vertex ids per triangle; triangles that
 * collapse to a line or a point are left out (they are counted as degenerate elsewhere).
 */
export function analyse(cornerIds: Int32Array, vertexCount: number, pointOf: (id: number, out: Float32Array, at: number) => void, wantBoundary: boolean): Topology {
  const triangles = Math.floor(cornerIds.length / 3);
  const start = new Int32Array(vertexCount + 1);
  const parent = new Int32Array(vertexCount);
  const used = new Uint8Array(vertexCount);
  for (let v = 0; v < vertexCount; v++) parent[v] = v;
  for (let t = 0; t < triangles * 3; t += 3) {
    const a = cornerIds[t], b = cornerIds[t + 1], c = cornerIds[t + 2];
    used[a] = used[b] = used[c] = 1;
    union(parent, a, b);
    union(parent, a, c);
    if (a === b || b === c || a === c) continue;
    start[a < b ? a : b]++;
    start[b < c ? b : c]++;
    start[c < a ? c : a]++;
  }
  for (let v = 0, sum = 0; v <= vertexCount; v++) {
    const n = start[v];
    start[v] = sum;
    sum += n;
  }
  const list = new Int32Array(start[vertexCount]);
  const fill = start.slice(0, vertexCount);
  const add = (a: number, b: number) => {
    if (a < b) list[fill[a]++] = b << 1;
    else list[fill[b]++] = (a << 1) | 1;
  };
  for (let t = 0; t < triangles * 3; t += 3) {
    const a = cornerIds[t], b = cornerIds[t + 1], c = cornerIds[t + 2];
    if (a === b || b === c || a === c) continue;
    add(a, b);
    add(b, c);
    add(c, a);
  }

  const counts: EdgeCounts = { open: 0, nonManifold: 0, inconsistent: 0 };
  const openPairs: number[] = [];
  const onOpen = wantBoundary ? (a: number, b: number) => void (openPairs.length < MAX_BOUNDARY_SEGMENTS * 2 && openPairs.push(a, b)) : () => {};
  for (let v = 0; v < vertexCount; v++) countList(list, start[v], start[v + 1], v, counts, onOpen);

  let shells = 0;
  for (let v = 0; v < vertexCount; v++) if (used[v] && parent[v] === v) shells++;

  let boundary: Float32Array | undefined;
  if (wantBoundary) {
    boundary = new Float32Array(openPairs.length * 3);
    for (let k = 0; k < openPairs.length; k++) pointOf(openPairs[k], boundary, k * 3);
  }
  return { openEdges: counts.open, nonManifoldEdges: counts.nonManifold, inconsistentEdges: counts.inconsistent, shells, boundary };
}
