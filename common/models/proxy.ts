// A lighter copy of a model for pictures: the library's thumbnails, and a viewer whose frames are too slow
// for every triangle. Vertex clustering: corners snap to a grid sized so that about `budget` triangles
// survive, a triangle whose corners share a cell vanishes, and the rest take their cells' mean points.
// Coarse but shape-true at a glance, and one pass over the corners with a table of cells (not points),
// which fits the cache where a weld's table does not.
import type { ParsedModel } from './types.ts';

export interface ProxyMesh {
  /** A soup: 9 floats per triangle, in mm like the model's. */
  positions: Float32Array;
  /** sRGB RGBA per corner, from the corners of the triangles kept, when the model has colours. */
  colors?: Uint8Array;
  triangles: number;
}

export type ProxySource = Pick<ParsedModel, 'positions' | 'indices' | 'colors' | 'facts'>;

/** Cells in the grid at most (a dense table of 32 MB); a larger grid is made coarser. */
const MAX_GRID_CELLS = 2 ** 23;
/** Cells wider each try when the grid kept far more triangles than the budget (a noisy or scanned surface). */
const COARSER = 1.6;
const TRIES = 5;

/** The model as a picture needs it: its proxy's triangles in place of its own (when it has one), its facts unchanged. */
export function pictureOf({ format, facts, positions, indices, colors, proxy }: ParsedModel): ParsedModel {
  if (proxy) return { format, facts, positions: proxy.positions, ...(proxy.colors ? { colors: proxy.colors } : {}) };
  return { format, facts, positions, ...(indices ? { indices } : {}), ...(colors ? { colors } : {}) };
}

/** A proxy must draw at most this share of the model's triangles to be worth its cost and its note. */
const WORTHWHILE = 0.5;

/**
 * The model with about `budget` triangles (at most twice that), or null when it has no more than twice
 * that already, or the clustering would keep over half of them: it is then its own best picture.
 */
export function simplify(model: ProxySource, budget: number): ProxyMesh | null {
  const { triangles, area } = model.facts;
  if (triangles <= budget * 2) return null;
  // A closed surface clustered on cells of side s keeps about 2·area/s² triangles.
  let side = Math.sqrt((2 * area) / budget);
  const points = model.indices ? model.positions.length / 3 : triangles * 3;
  const clusterOfPoint = new Int32Array(points);
  const used = usedPoints(model);
  for (let attempt = 1; ; attempt++) {
    const clusters = cluster(model, side, clusterOfPoint, used, budget);
    if (clusters && (clusters.kept <= budget * 2 || attempt === TRIES)) return clusters.kept > triangles * WORTHWHILE ? null : emit(model, clusters, clusterOfPoint);
    side *= COARSER;
  }
}

interface Clusters {
  /** Mean point of each cluster (the points of one cell), 3 floats a cluster. */
  means: Float32Array;
  kept: number;
}

/**
 * Which points of a vertex table the triangles use, or null for a soup (all of them). A table may hold
 * points no triangle names, anywhere: the box (the triangles') does not hold them, and they would land
 * in a wrong cell and pull its mean away.
 */
function usedPoints({ indices, positions }: ProxySource): Uint8Array | null {
  if (!indices) return null;
  const used = new Uint8Array(positions.length / 3);
  for (let i = 0; i < indices.length; i++) used[indices[i]] = 1;
  return used;
}

interface Grid {
  inverse: number;
  nx: number;
  ny: number;
  nz: number;
}

/** Cells of side `side` over the model's box, made coarser until a dense table of them is affordable. */
function gridOver({ min, max }: ProxySource['facts']['bounds'], side: number): Grid {
  for (let s = Math.max(side, 1e-30); ; s *= Math.cbrt(2)) {
    const [nx, ny, nz] = [0, 1, 2].map((axis) => Math.floor((max[axis] - min[axis]) / s) + 1);
    if (nx * ny * nz <= MAX_GRID_CELLS) return { inverse: 1 / s, nx, ny, nz };
  }
}

/**
 * Assigns each point its cluster and each cluster its mean; null when there are more clusters than the
 * budget allows. The grid is a dense table (twice as fast as a hash of the occupied cells, measured).
 */
function cluster(model: ProxySource, side: number, clusterOfPoint: Int32Array, used: Uint8Array | null, budget: number): Clusters | null {
  const { min } = model.facts.bounds;
  const { inverse, nx, ny, nz } = gridOver(model.facts.bounds, side);
  // A closed surface has about half as many points as triangles: room for twice the clusters a budget's
  // worth of triangles spans.
  const capacity = budget;
  // Cluster + 1 by cell, so that the zeroed table means empty.
  const grid = new Int32Array(nx * ny * nz);
  // Doubles: float sums of coordinates near float32's range (junk files) overflow to Infinity.
  const sums = new Float64Array(capacity * 4);
  const positions = model.positions;
  const [minX, minY, minZ] = min;
  const [lastX, lastY, lastZ] = [nx - 1, ny - 1, nz - 1];
  let clusters = 0;
  for (let point = 0, p = 0; point < clusterOfPoint.length; point++, p += 3) {
    if (used && !used[point]) continue;
    const x = positions[p] - minX, y = positions[p + 1] - minY, z = positions[p + 2] - minZ;
    // A point on the box's far face can round into the cell past the last one: it stays in the last.
    const cx = Math.min(lastX, (x * inverse) | 0), cy = Math.min(lastY, (y * inverse) | 0), cz = Math.min(lastZ, (z * inverse) | 0);
    const key = cx + nx * (cy + ny * cz);
    let id = grid[key] - 1;
    if (id < 0) {
      if (clusters === capacity) return null;
      id = clusters++;
      grid[key] = id + 1;
    }
    clusterOfPoint[point] = id;
    const s = id * 4;
    sums[s] += x;
    sums[s + 1] += y;
    sums[s + 2] += z;
    sums[s + 3]++;
  }
  const means = new Float32Array(clusters * 3);
  for (let id = 0; id < clusters; id++) {
    const n = sums[id * 4 + 3];
    means[id * 3] = sums[id * 4] / n + minX;
    means[id * 3 + 1] = sums[id * 4 + 1] / n + minY;
    means[id * 3 + 2] = sums[id * 4 + 2] / n + minZ;
  }
  return { means, kept: countKept(model, clusterOfPoint) };
}

/** The cluster of corner `corner` (triangle·3 + k). */
function clusterOfCorner(model: ProxySource, clusterOfPoint: Int32Array, corner: number): number {
  return clusterOfPoint[model.indices ? model.indices[corner] : corner];
}

function countKept(model: ProxySource, clusterOfPoint: Int32Array): number {
  let kept = 0;
  for (let corner = 0; corner < model.facts.triangles * 3; corner += 3) {
    const a = clusterOfCorner(model, clusterOfPoint, corner), b = clusterOfCorner(model, clusterOfPoint, corner + 1), c = clusterOfCorner(model, clusterOfPoint, corner + 2);
    if (a !== b && b !== c && a !== c) kept++;
  }
  return kept;
}

function emit(model: ProxySource, { means, kept }: Clusters, clusterOfPoint: Int32Array): ProxyMesh {
  const positions = new Float32Array(kept * 9);
  const colors = model.colors ? new Uint8Array(kept * 12) : undefined;
  let out = 0;
  for (let corner = 0; corner < model.facts.triangles * 3; corner += 3) {
    const a = clusterOfCorner(model, clusterOfPoint, corner), b = clusterOfCorner(model, clusterOfPoint, corner + 1), c = clusterOfCorner(model, clusterOfPoint, corner + 2);
    if (a === b || b === c || a === c) continue;
    copyPoint(means, a, positions, out * 9);
    copyPoint(means, b, positions, out * 9 + 3);
    copyPoint(means, c, positions, out * 9 + 6);
    if (colors) for (let k = 0; k < 12; k++) colors[out * 12 + k] = model.colors![corner * 4 + k];
    out++;
  }
  return { positions, ...(colors ? { colors } : {}), triangles: kept };
}

function copyPoint(from: Float32Array, point: number, to: Float32Array, at: number): void {
  to[at] = from[point * 3];
  to[at + 1] = from[point * 3 + 1];
  to[at + 2] = from[point * 3 + 2];
}
