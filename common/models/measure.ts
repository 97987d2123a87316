import type { Vec3 } from './types.ts';

export interface Measures {
  min: Vec3;
  max: Vec3;
  /** Signed: negative when the triangles face inwards. */
  signedVolume: number;
  area: number;
  degenerate: number;
  /** Index of the first triangle with a non-finite coordinate, or -1. */
  firstNonFinite: number;
}

/** sin(angle) below which a triangle counts as degenerate: far below any real sliver, above float32 noise. */
export const DEGENERATE_SIN2 = 1e-12;

/**
 * Triangles per slice for a parser that measures as it reads: 8192 triangles (288 KiB of positions) are
 * still in cache when measured right after they are written, which took a third off binary STL's
 * read-and-measure time against one pass after the other.
 */
export const MEASURE_SLICE = 8192;

/**
 * Triangles measured on their own before the rest of a model's first slice, so that the measuring loop
 * runs to its end once before V8 compiles it: compiled in the middle of its first run, it knew nothing of
 * the code after it and bailed out there at the end of every slice after (63 times in a 1M-triangle file).
 */
export const FIRST_FEW = 16;

/** Where each running sum sits in a MeasureSum's state (exported for stl-binary-measure.ts's fused loop). */
export const MIN_X = 0, MIN_Y = 1, MIN_Z = 2, MAX_X = 3, MAX_Y = 4, MAX_Z = 5, VOLUME6 = 6, AREA2 = 7, DEGENERATE = 8, RX = 9, RY = 10, RZ = 11;

/**
 * Bounding box, volume (signed tetrahedra against the first vertex, which keeps the cancellation small for
 * models far from the origin), area and degenerate triangles, in float64, summed over slices of a soup
 * taken in order.
 *
 * The running sums live in one array of doubles, not in fields: fields that start as 0 and then hold
 * doubles change the object's shape after V8 has compiled the loop for it, and the loop then ran at half
 * speed in some processes and after some collections (22 against 12 ms for 1M triangles). Not in a
 * Float64Array either: one of 12 is allocated off the heap, 0.8 µs, a third of a small file's measuring.
 */
export class MeasureSum {
  readonly state: number[] = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity, 0, 0, 0, 0, 0, 0];
  firstNonFinite = -1;
  triangles = 0;

  /**
   * Adds triangles [first, last) of `positions`, the next ones of the model (a non-finite coordinate is
   * reported by its place in the model, so `positions` may be a scratch slice); stops at such a coordinate.
   */
  add(positions: Float32Array, first: number, last: number): void {
    if (this.firstNonFinite >= 0 || last <= first) return;
    const state = this.state;
    if (this.triangles === 0) {
      state[RX] = positions[first * 9];
      state[RY] = positions[first * 9 + 1];
      state[RZ] = positions[first * 9 + 2];
    }
    // The first slice in two (see FIRST_FEW): a few triangles, then the rest.
    const split = this.triangles === 0 ? Math.min(last, first + FIRST_FEW) : first;
    let bad = split > first ? addSlice(positions, first, split, state) : -1;
    if (bad < 0) bad = addSlice(positions, split, last, state);
    if (bad >= 0) this.firstNonFinite = this.triangles + bad - first;
    else this.triangles += last - first;
  }

  /**
   * As `add` for triangles a caller measured itself into `state` (stl-binary-measure.ts reads and measures
   * in one loop): counts them, and notes the first reference point.
   */
  counted(triangles: number): void {
    this.triangles += triangles;
  }

  /** As `add`, for triangles [first, last) of a vertex table's `corners`. */
  addIndexed(vertices: Float32Array, corners: Int32Array, first: number, last: number): void {
    if (this.firstNonFinite >= 0 || last <= first) return;
    const state = this.state;
    if (this.triangles === 0) {
      const r = corners[first * 3] * 3;
      state[RX] = vertices[r];
      state[RY] = vertices[r + 1];
      state[RZ] = vertices[r + 2];
    }
    const split = this.triangles === 0 ? Math.min(last, first + FIRST_FEW) : first;
    let bad = split > first ? addIndexedSlice(vertices, corners, first, split, state) : -1;
    if (bad < 0) bad = addIndexedSlice(vertices, corners, split, last, state);
    if (bad >= 0) this.firstNonFinite = this.triangles + bad - first;
    else this.triangles += last - first;
  }

  result(): Measures {
    const state = this.state;
    if (this.firstNonFinite >= 0 || this.triangles === 0) {
      return { min: [0, 0, 0], max: [0, 0, 0], signedVolume: 0, area: 0, degenerate: 0, firstNonFinite: this.firstNonFinite };
    }
    return {
      min: [state[MIN_X], state[MIN_Y], state[MIN_Z]],
      max: [state[MAX_X], state[MAX_Y], state[MAX_Z]],
      signedVolume: state[VOLUME6] / 6,
      area: state[AREA2] / 2,
      degenerate: state[DEGENERATE],
      firstNonFinite: -1,
    };
  }
}

/** Measures triangles [first, last) into `state`; returns the first with a non-finite coordinate, or -1. */
function addSlice(positions: Float32Array, first: number, last: number, state: number[]): number {
  let minX = state[MIN_X], minY = state[MIN_Y], minZ = state[MIN_Z], maxX = state[MAX_X], maxY = state[MAX_Y], maxZ = state[MAX_Z];
  let volume6 = state[VOLUME6], area2 = state[AREA2], degenerate = state[DEGENERATE];
  const rx = state[RX], ry = state[RY], rz = state[RZ];
  let bad = -1;
  for (let t = first, p = first * 9; t < last; t++, p += 9) {
    const ax = positions[p], ay = positions[p + 1], az = positions[p + 2];
    const bx = positions[p + 3], by = positions[p + 4], bz = positions[p + 5];
    const cx = positions[p + 6], cy = positions[p + 7], cz = positions[p + 8];
    const sum = ax + ay + az + bx + by + bz + cx + cy + cz;
    if (sum - sum !== 0) {
      bad = t;
      break;
    }
    if (ax < minX) minX = ax; if (ax > maxX) maxX = ax;
    if (bx < minX) minX = bx; if (bx > maxX) maxX = bx;
    if (cx < minX) minX = cx; if (cx > maxX) maxX = cx;
    if (ay < minY) minY = ay; if (ay > maxY) maxY = ay;
    if (by < minY) minY = by; if (by > maxY) maxY = by;
    if (cy < minY) minY = cy; if (cy > maxY) maxY = cy;
    if (az < minZ) minZ = az; if (az > maxZ) maxZ = az;
    if (bz < minZ) minZ = bz; if (bz > maxZ) maxZ = bz;
    if (cz < minZ) minZ = cz; if (cz > maxZ) maxZ = cz;
    const ux = bx - ax, uy = by - ay, uz = bz - az;
    const vx = cx - ax, vy = cy - ay, vz = cz - az;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const cross2 = nx * nx + ny * ny + nz * nz;
    const scale2 = (ux * ux + uy * uy + uz * uz) * (vx * vx + vy * vy + vz * vz);
    if (cross2 <= DEGENERATE_SIN2 * scale2) degenerate++;
    area2 += Math.sqrt(cross2);
    volume6 += (ax - rx) * nx + (ay - ry) * ny + (az - rz) * nz;
  }
  state[MIN_X] = minX; state[MIN_Y] = minY; state[MIN_Z] = minZ;
  state[MAX_X] = maxX; state[MAX_Y] = maxY; state[MAX_Z] = maxZ;
  state[VOLUME6] = volume6;
  state[AREA2] = area2;
  state[DEGENERATE] = degenerate;
  return bad;
}

/**
 * addSlice for a vertex table, reading each triangle through its `corners`. The same body twice, on
 * purpose: one loop for both (an identity index for soups, or a branch per corner) made binary STL's
 * measuring 8–15% slower, and gathering the corners into a scratch soup first, as before, took an OBJ's
 * measuring twice the time of this loop.
 */
function addIndexedSlice(points: Float32Array, corners: Int32Array, first: number, last: number, state: number[]): number {
  let minX = state[MIN_X], minY = state[MIN_Y], minZ = state[MIN_Z], maxX = state[MAX_X], maxY = state[MAX_Y], maxZ = state[MAX_Z];
  let volume6 = state[VOLUME6], area2 = state[AREA2], degenerate = state[DEGENERATE];
  const rx = state[RX], ry = state[RY], rz = state[RZ];
  let bad = -1;
  for (let t = first, k = first * 3; t < last; t++, k += 3) {
    const a = corners[k] * 3, b = corners[k + 1] * 3, c = corners[k + 2] * 3;
    const ax = points[a], ay = points[a + 1], az = points[a + 2];
    const bx = points[b], by = points[b + 1], bz = points[b + 2];
    const cx = points[c], cy = points[c + 1], cz = points[c + 2];
    const sum = ax + ay + az + bx + by + bz + cx + cy + cz;
    if (sum - sum !== 0) {
      bad = t;
      break;
    }
    if (ax < minX) minX = ax; if (ax > maxX) maxX = ax;
    if (bx < minX) minX = bx; if (bx > maxX) maxX = bx;
    if (cx < minX) minX = cx; if (cx > maxX) maxX = cx;
    if (ay < minY) minY = ay; if (ay > maxY) maxY = ay;
    if (by < minY) minY = by; if (by > maxY) maxY = by;
    if (cy < minY) minY = cy; if (cy > maxY) maxY = cy;
    if (az < minZ) minZ = az; if (az > maxZ) maxZ = az;
    if (bz < minZ) minZ = bz; if (bz > maxZ) maxZ = bz;
    if (cz < minZ) minZ = cz; if (cz > maxZ) maxZ = cz;
    const ux = bx - ax, uy = by - ay, uz = bz - az;
    const vx = cx - ax, vy = cy - ay, vz = cz - az;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const cross2 = nx * nx + ny * ny + nz * nz;
    const scale2 = (ux * ux + uy * uy + uz * uz) * (vx * vx + vy * vy + vz * vz);
    if (cross2 <= DEGENERATE_SIN2 * scale2) degenerate++;
    area2 += Math.sqrt(cross2);
    volume6 += (ax - rx) * nx + (ay - ry) * ny + (az - rz) * nz;
  }
  state[MIN_X] = minX; state[MIN_Y] = minY; state[MIN_Z] = minZ;
  state[MAX_X] = maxX; state[MAX_Y] = maxY; state[MAX_Z] = maxZ;
  state[VOLUME6] = volume6;
  state[AREA2] = area2;
  state[DEGENERATE] = degenerate;
  return bad;
}

/** The measures of a whole soup in one pass. */
export function measure(positions: Float32Array): Measures {
  const sum = new MeasureSum();
  sum.add(positions, 0, Math.floor(positions.length / 9));
  return sum.result();
}

/** The measures of an indexed mesh, read through its corners: no soup is made. */
export function measureIndexed(vertices: Float32Array, corners: Int32Array): Measures {
  const sum = new MeasureSum();
  sum.addIndexed(vertices, corners, 0, Math.floor(corners.length / 3));
  return sum.result();
}
