// Edge use and shells of welded triangles. Typed arrays only: no Map, no strings, no per-item objects.
// Edges are grouped per vertex (a counting sort) rather than hashed, because scanning each vertex's short
// list is cache-friendly where a hash table over millions of edges is one cache miss per edge.

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
 * edges (they are counted as degenerate elsewhere), nor do triangles of parts drawn closed (see RawMesh's
 * closedParts), but both still join their vertices into one shell. Shells are
 * joined here too, per triangle: in file order, which keeps the union-find's walks short.
 */
function edgeLists(cornerIds: Int32Array, vertexCount: number, parent: Int32Array, loose: Uint8Array, room: Int32Array, closed: Uint8Array | null): { start: Int32Array; list: Int32Array } {
  const corners = cornerIds.length - (cornerIds.length % 3);
  const start = room.subarray(0, vertexCount + 1);
  for (let t = 0; t < corners; t += 3) {
    const a = cornerIds[t], b = cornerIds[t + 1], c = cornerIds[t + 2];
    union(parent, a, b);
    union(parent, a, c);
    if (a === b || b === c || a === c || (closed !== null && closed[t / 3] === 1)) {
      loose[a] = loose[b] = loose[c] = 1;
      continue;
    }
    start[(a < b ? a : b) + 1]++;
    start[(b < c ? b : c) + 1]++;
    start[(c < a ? c : a) + 1]++;
  }
  for (let v = 0; v < vertexCount; v++) start[v + 1] += start[v];
  const list = room.subarray(vertexCount + 1, vertexCount + 1 + start[vertexCount]);
  // Filled from each list's end down, so `start` needs no copy as a cursor.
  const end = start.subarray(1);
  for (let t = 0; t < corners; t += 3) {
    const a = cornerIds[t], b = cornerIds[t + 1], c = cornerIds[t + 2];
    if (a === b || b === c || a === c || (closed !== null && closed[t / 3] === 1)) continue;
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

/** 1 for each triangle in one of the [first, end) ranges, or null when there are none. */
function closedMask(ranges: number[], triangles: number): Uint8Array | null {
  if (ranges.length === 0) return null;
  const mask = new Uint8Array(triangles);
  for (let k = 0; k + 1 < ranges.length; k += 2) mask.fill(1, ranges[k], ranges[k + 1]);
  return mask;
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
export function analyse(cornerIds: Int32Array, vertexCount: number, pointOf: (id: number, out: Float32Array, at: number) => void, wantBoundary: boolean, closedParts: number[] = []): Topology {
  // One allocation for every array: each typed array's own costs about 0.7 µs, most of a small model's
  // topology. The edge list gets room for 3 edges a triangle; degenerate triangles leave theirs unused.
  const listRoom = cornerIds.length - (cornerIds.length % 3);
  const room = new Int32Array(vertexCount + 1 + listRoom + vertexCount + Math.ceil(vertexCount / 4));
  const parent = room.subarray(vertexCount + 1 + listRoom, vertexCount + 1 + listRoom + vertexCount);
  for (let v = 0; v < vertexCount; v++) parent[v] = v;
  const loose = new Uint8Array(room.buffer, (vertexCount + 1 + listRoom + vertexCount) * 4, vertexCount);
  const { start, list } = edgeLists(cornerIds, vertexCount, parent, loose, room, closedMask(closedParts, Math.floor(cornerIds.length / 3)));
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
