// Edge use and shells of welded triangles. Typed arrays only: no Map, no strings, no per-item objects.
// Edges are grouped per vertex (a counting sort) rather than hashed, because scanning each vertex's short
// list is cache-friendly where a hash table over millions of edges is one cache miss per edge.
import { takeSpare } from './spare-memory.ts';

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
 * Joins each triangle's corners into one shell, and counts each vertex's edges to higher-numbered
 * vertices into `start[v + 1]`. Triangles with two corners welded into one point add no edges (a sliver
 * of three distinct points in a line does: its edges are the mesh's; degenerateTriangles counts by area,
 * apart from this), nor do triangles of parts drawn closed (see RawMesh's closedParts),
 * but both still join their vertices into one shell, and mark them `loose`. In file order, which keeps
 * the union-find's walks short.
 */
function joinAndCount(cornerIds: Int32Array, corners: number, parent: Int32Array, loose: Uint8Array, start: Int32Array, closed: Uint8Array | null): void {
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
}

/**
 * The lists of vertices [low, high): each vertex's edges to higher-numbered vertices, encoded as
 * other·2 + (1 if the triangle walked it downwards), written to `list` from `base`, where vertex low's
 * list begins (`start` holds where each vertex's list begins). Each list is filled from its end down, with `start[v + 1]` as its
 * cursor: afterwards `start[v + 1]` holds where v's list begins, one place to the right of its own.
 * Corners before `first` are all below `low`: their triangles have no edge in the range.
 */
function fillLists(cornerIds: Int32Array, first: number, corners: number, low: number, high: number, base: number, start: Int32Array, list: Int32Array, closed: Uint8Array | null): void {
  const end = start.subarray(1);
  for (let t = first; t < corners; t += 3) {
    const a = cornerIds[t], b = cornerIds[t + 1], c = cornerIds[t + 2];
    if (a === b || b === c || a === c || (closed !== null && closed[t / 3] === 1)) continue;
    if (a < b) {
      if (a >= low && a < high) list[--end[a] - base] = b << 1;
    } else if (b >= low && b < high) list[--end[b] - base] = (a << 1) | 1;
    if (b < c) {
      if (b >= low && b < high) list[--end[b] - base] = c << 1;
    } else if (c >= low && c < high) list[--end[c] - base] = (b << 1) | 1;
    if (c < a) {
      if (c >= low && c < high) list[--end[c] - base] = a << 1;
    } else if (a >= low && a < high) list[--end[a] - base] = (c << 1) | 1;
  }
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
 * Edge lists are built for a range of vertices at a time, each range's lists at most this many entries (or
 * a quarter of all, when more): the lists of every vertex at once take 12 bytes a triangle, as much as
 * the corners' ids, and a range's fit the cache better while they are written. Each range reads the ids
 * again, in order: a few milliseconds a million triangles.
 */
const RANGE_ENTRIES = 1 << 20;

export interface AnalyseOptions {
  /** Open edges as segments (`Topology.boundary`), each end placed by `pointOf`. */
  boundary?: { pointOf: (id: number, out: Float32Array, at: number) => void };
  /** Triangles of parts drawn closed, as [first, end) pairs: see RawMesh's closedParts. */
  closedParts?: number[];
  /** Arrays the caller no longer needs, used for the pass's own where large enough (see takeSpare). */
  spare?: Int32Array[];
  /** For tests: a small one makes many ranges of a small model. */
  rangeEntries?: number;
}

/**
 * Counts how each undirected edge is used, and the shells. `cornerIds` holds 3 welded vertex ids per
 * triangle. A shell's root is its lowest vertex (unions keep the lower root), and that vertex has an edge
 * to every neighbour in its own list: so a root with an empty list and no degenerate triangle is a vertex
 * no triangle uses.
 */
export function analyse(cornerIds: Int32Array, vertexCount: number, { boundary: wantBoundary, closedParts = [], spare, rangeEntries = RANGE_ENTRIES }: AnalyseOptions = {}): Topology {
  const corners = cornerIds.length - (cornerIds.length % 3);
  // One allocation for the vertices' arrays: each typed array's own costs about 0.7 µs, most of a small
  // model's topology.
  const room = takeSpare(spare, vertexCount + 1 + vertexCount + Math.ceil(vertexCount / 4));
  const start = room.subarray(0, vertexCount + 1);
  const parent = room.subarray(vertexCount + 1, vertexCount + 1 + vertexCount);
  for (let v = 0; v < vertexCount; v++) parent[v] = v;
  const loose = new Uint8Array(room.buffer, room.byteOffset + (vertexCount + 1 + vertexCount) * 4, vertexCount);
  const closed = closedMask(closedParts, corners / 3);
  joinAndCount(cornerIds, corners, parent, loose, start, closed);
  let longest = 0;
  for (let v = 0; v < vertexCount; v++) {
    longest = Math.max(longest, start[v + 1]);
    start[v + 1] += start[v];
  }
  const total = start[vertexCount];
  // A list in spare memory even if it makes more ranges (at most 8): each range reads the ids once more
  // (3 ms for 1M triangles), where a new array's pages are written for the first time (13 ms for 4 MB).
  const list = takeSpare(spare, Math.min(total, Math.max(rangeEntries, Math.ceil(total / 4), longest)), Math.min(total, Math.max(longest, Math.ceil(total / 8))));
  const counts: EdgeCounts = { open: 0, nonManifold: 0, inconsistent: 0, openPairs: wantBoundary ? [] : null };
  let shells = 0;
  // `base` is where the range's lists begin: start[low] itself was the cursor of the range before.
  let low = 0, base = 0, first = 0;
  while (low < vertexCount) {
    // As many vertices as the list has room for (at least one: the longest list fits).
    let high = low + 1;
    while (high < vertexCount && start[high + 1] - base <= list.length) high++;
    const rangeEnd = start[high];
    // Welded ids come in the order their points first do, so the triangles before vertex low's first
    // corner hold only lower vertices: each range reads the ids from there (for 1M triangles in 4 ranges,
    // 2.5 readings of them instead of 4). Any other order is read whole, as before.
    while (first < corners && cornerIds[first] < low) first++;
    first -= first % 3;
    fillLists(cornerIds, first, corners, low, high, base, start, list, closed);
    for (let v = low; v < high; v++) {
      // Filled: start[v + 1] is where v's list begins, and v's list ends where the next one begins.
      const from = start[v + 1] - base, to = (v + 1 < high ? start[v + 2] : rangeEnd) - base;
      if (to > from) countList(list, from, to, v, counts);
      if (parent[v] === v && (to > from || loose[v])) shells++;
    }
    low = high;
    base = rangeEnd;
  }
  let boundary: Float32Array | undefined;
  if (counts.openPairs && wantBoundary) {
    const pairs = counts.openPairs;
    boundary = new Float32Array(pairs.length * 3);
    for (let k = 0; k < pairs.length; k++) wantBoundary.pointOf(pairs[k], boundary, k * 3);
  }
  return { openEdges: counts.open, nonManifoldEdges: counts.nonManifold, inconsistentEdges: counts.inconsistent, shells, boundary };
}
