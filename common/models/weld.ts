// Welding: one id for all the points at the same place, so that triangles read as a soup (STL) or from a
// vertex table with repeated points share their corners. Typed arrays only: no Map, no strings, no
// per-point objects.
import { bitsetFor, repeatSuspects } from './weld-repeats.ts';
import { slotHash } from './point-table.ts';
import { weldWords, type JoinWords } from './weld-words.ts';

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
 * holds every point. The corners are welded by their bits as they are read (see weld-words.ts), then
 * joined by cell: the same ids as welding every corner by its cell. The soup is not read afterwards.
 */
export function weld(points: Float32Array, expectedUnique: number, box: Box): WeldedCorners {
  const count = Math.floor(points.length / 3);
  const { ids, words, unique } = weldWords(new Int32Array(points.buffer, points.byteOffset, count * 3), count, Math.min(count, expectedUnique), cellsOn(box));
  return { ids, points: new Float32Array(words.buffer, words.byteOffset, unique * 3), unique };
}

/**
 * A point's cell on the grid over `box`, for a weld's join (WordWelder.result): points whose bits differ
 * but whose cells are one (-0 and 0, or two within a quantum) are the same point.
 */
export function cellsOn(box: Box): JoinWords {
  const grid = quantizer(box);
  return (points, id, out, at) => cellOf(points, id, grid, out, at);
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
  const cells = new Int32Array(count * 3);
  for (let i = 0; i < count; i++) cellOf(points, i, grid, cells, i);
  return weldCells(cells, count);
}

/** The cell of point `i` of `points`, as words `at` of `cells`. */
function cellOf(points: Float32Array, i: number, { minX, minY, minZ, inverseQuantum }: Grid, cells: Int32Array, at: number): void {
  cells[at * 3] = cell(points[i * 3], minX, inverseQuantum);
  cells[at * 3 + 1] = cell(points[i * 3 + 1], minY, inverseQuantum);
  cells[at * 3 + 2] = cell(points[i * 3 + 2], minZ, inverseQuantum);
}

/** Points welded by their cells; each id's first point found from the ids, which come in order. */
function weldCells(cells: Int32Array, count: number): Welded {
  const { ids, unique } = weldWords(cells, count, count);
  const firstPoint = new Int32Array(unique);
  for (let i = 0, next = 0; next < unique; i++) if (ids[i] === next) firstPoint[next++] = i;
  return { ids, firstPoint, unique };
}

/**
 * Whether two points share a quantized position. Only points whose hash another shares (see
 * repeatSuspects: a few percent, mostly hash collisions) are welded, to tell a repeated point from a
 * collision. For 500K distinct points: about 12 ms, against the weld's 40. Many collisions mean real
 * repeats: the caller welds them all anyway.
 */
function hasRepeats(points: Float32Array, count: number, grid: Grid): boolean {
  const { minX, minY, minZ, inverseQuantum } = grid;
  const hashes = new Int32Array(count);
  for (let i = 0; i < count; i++) hashes[i] = slotHash(cell(points[i * 3], minX, inverseQuantum), cell(points[i * 3 + 1], minY, inverseQuantum), cell(points[i * 3 + 2], minZ, inverseQuantum));
  const suspects = repeatSuspects(count, hashes, 1, bitsetFor(count), Math.max(64, count / 8));
  if (suspects === null || suspects === 'many') return suspects === 'many';
  const cells = new Int32Array(suspects.length * 3);
  for (let n = 0; n < suspects.length; n++) cellOf(points, suspects[n], grid, cells, n);
  return weldCells(cells, suspects.length).unique < suspects.length;
}
