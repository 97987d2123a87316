// A lighter copy of a model for pictures: the library's thumbnails, and a viewer whose frames are too slow
// for every triangle. Vertex clustering: corners snap to a grid sized so that about `budget` triangles
// survive, a triangle whose corners share a cell vanishes, and the rest take their cells' mean points.
// Coarse but shape-true at a glance, and one pass over the corners with a table of cells (not points),
// which fits the cache where a weld's table does not.
import type { ParsedModel } from './types.ts';

export interface ProxyMesh {
  /** A soup: 9 floats per triangle, in mm like the model's; with `indices`, each point once (3 floats). */
  positions: Float32Array;
  /** Each triangle's 3 points in `positions`, when it holds each point once (a host's first picture without colours). */
  indices?: Uint32Array;
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

/**
 * Triangles of the copy a preview draws while a frame of every triangle is too slow (see the viewer's
 * detail-policy.ts), and the first picture of a large model the host sends ahead of its file.
 */
export const PREVIEW_PROXY_TRIANGLES = 100_000;

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
  const used = usedPoints(model);
  for (let attempt = 1; ; attempt++) {
    // From the last try on, what is kept is kept, however many triangles (the clusters must still fit).
    const clusters = cluster(model, side, used, budget, attempt >= TRIES ? Infinity : budget * 2);
    if (clusters) return clusters.kept > triangles * WORTHWHILE ? null : emit(model, clusters);
    side *= COARSER;
  }
}

interface Clusters {
  /** Mean point of each cluster (the points of one cell), 3 floats a cluster. */
  means: Float32Array;
  /** The triangles kept (their corners in three clusters): their clusters and their own index, 4 a triangle. */
  keptTriangles: Int32Array;
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
 * Points into clusters by the cell they fall in, each cluster summing its points for their mean. The grid
 * is a dense table (twice as fast as a hash of the occupied cells, measured). Corners come in runs in the
 * same cell (a cell spans many triangles), so the last cell's cluster is kept at hand.
 */
class Clustering {
  readonly grid: Int32Array;
  /** Doubles: float sums of coordinates near float32's range (junk files) overflow to Infinity. */
  readonly sums: Float64Array;
  readonly capacity: number;
  clusters = 0;
  private lastCell = -1;
  private lastCluster = -1;
  private readonly minX: number;
  private readonly minY: number;
  private readonly minZ: number;
  private readonly cells: Grid;

  constructor(bounds: ProxySource['facts']['bounds'], side: number, capacity: number) {
    this.cells = gridOver(bounds, side);
    [this.minX, this.minY, this.minZ] = bounds.min;
    // Cluster + 1 by cell, so that the zeroed table means empty.
    this.grid = new Int32Array(this.cells.nx * this.cells.ny * this.cells.nz);
    this.capacity = capacity;
    this.sums = new Float64Array(capacity * 4);
  }

  /** The cluster of the point at `p` in `positions`, or -1 when there would be more clusters than the capacity. */
  add(positions: Float32Array, p: number): number {
    const { inverse, nx, ny, nz } = this.cells;
    const x = positions[p] - this.minX, y = positions[p + 1] - this.minY, z = positions[p + 2] - this.minZ;
    // A point on the box's far face can round into the cell past the last one: it stays in the last.
    const cx = Math.min(nx - 1, (x * inverse) | 0), cy = Math.min(ny - 1, (y * inverse) | 0), cz = Math.min(nz - 1, (z * inverse) | 0);
    const cell = cx + nx * (cy + ny * cz);
    let id = this.lastCluster;
    if (cell !== this.lastCell) {
      id = this.grid[cell] - 1;
      if (id < 0) {
        if (this.clusters === this.capacity) return -1;
        id = this.clusters++;
        this.grid[cell] = id + 1;
      }
      this.lastCell = cell;
      this.lastCluster = id;
    }
    const s = id * 4;
    const sums = this.sums;
    sums[s] += x;
    sums[s + 1] += y;
    sums[s + 2] += z;
    sums[s + 3]++;
    return id;
  }

  means(): Float32Array {
    const { sums, clusters } = this;
    const means = new Float32Array(clusters * 3);
    for (let id = 0; id < clusters; id++) {
      const n = sums[id * 4 + 3];
      means[id * 3] = sums[id * 4] / n + this.minX;
      means[id * 3 + 1] = sums[id * 4 + 1] / n + this.minY;
      means[id * 3 + 2] = sums[id * 4 + 2] / n + this.minZ;
    }
    return means;
  }
}

/** The triangles kept, 4 ints each, growing (doubling) up to `most`; false once more would be needed. */
class KeptTriangles {
  list = new Int32Array(4096 * 4);
  kept = 0;
  private readonly most: number;

  constructor(most: number) {
    this.most = most;
  }

  /** Keeps the triangle when its corners are in three clusters; false when that is one too many. */
  add(a: number, b: number, c: number, triangle: number): boolean {
    if (a === b || b === c || a === c) return true;
    if (this.kept === this.most) return false;
    if (this.kept * 4 === this.list.length) {
      const grown = new Int32Array(this.list.length * 2);
      grown.set(this.list);
      this.list = grown;
    }
    const at = this.kept++ * 4;
    this.list[at] = a;
    this.list[at + 1] = b;
    this.list[at + 2] = c;
    this.list[at + 3] = triangle;
    return true;
  }
}

/**
 * Clusters the points and lists the triangles kept, or null when there would be more clusters than the
 * budget allows or more triangles kept than `most`: a coarser grid is tried then. A soup is clustered
 * triangle by triangle in one pass; a vertex table point by point, then its triangles read by index.
 */
function cluster(model: ProxySource, side: number, used: Uint8Array | null, budget: number, most: number): Clusters | null {
  // A closed surface has about half as many points as triangles: room for twice the clusters a budget's
  // worth of triangles spans.
  const clustering = new Clustering(model.facts.bounds, side, budget);
  const kept = new KeptTriangles(most);
  const { positions, indices } = model;
  const triangles = model.facts.triangles;
  if (!indices) {
    for (let t = 0, p = 0; t < triangles; t++, p += 9) {
      const a = clustering.add(positions, p), b = clustering.add(positions, p + 3), c = clustering.add(positions, p + 6);
      if (a < 0 || b < 0 || c < 0 || !kept.add(a, b, c, t)) return null;
    }
  } else {
    const clusterOfPoint = new Int32Array(positions.length / 3);
    for (let point = 0; point < clusterOfPoint.length; point++) {
      if (used && !used[point]) continue;
      clusterOfPoint[point] = clustering.add(positions, point * 3);
      if (clusterOfPoint[point] < 0) return null;
    }
    for (let t = 0, k = 0; t < triangles; t++, k += 3) {
      if (!kept.add(clusterOfPoint[indices[k]], clusterOfPoint[indices[k + 1]], clusterOfPoint[indices[k + 2]], t)) return null;
    }
  }
  return { means: clustering.means(), keptTriangles: kept.list, kept: kept.kept };
}

function emit(model: ProxySource, { means, keptTriangles, kept }: Clusters): ProxyMesh {
  const positions = new Float32Array(kept * 9);
  const colors = model.colors ? new Uint8Array(kept * 12) : undefined;
  for (let out = 0; out < kept; out++) {
    for (let k = 0; k < 3; k++) copyPoint(means, keptTriangles[out * 4 + k], positions, out * 9 + k * 3);
    if (colors) colors.set(model.colors!.subarray(keptTriangles[out * 4 + 3] * 12, keptTriangles[out * 4 + 3] * 12 + 12), out * 12);
  }
  return { positions, ...(colors ? { colors } : {}), triangles: kept };
}

function copyPoint(from: Float32Array, point: number, to: Float32Array, at: number): void {
  to[at] = from[point * 3];
  to[at + 1] = from[point * 3 + 1];
  to[at + 2] = from[point * 3 + 2];
}
