import { gatherCorners } from './soup.ts';
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
const DEGENERATE_SIN2 = 1e-12;

/**
 * Triangles per slice for a parser that measures as it reads: 8192 triangles (288 KiB of positions) are
 * still in cache when measured right after they are written, which took a third off binary STL's
 * read-and-measure time against one pass after the other.
 */
export const MEASURE_SLICE = 8192;

/**
 * Bounding box, volume (signed tetrahedra against the first vertex, which keeps the cancellation small for
 * models far from the origin), area and degenerate triangles, in float64, summed over slices of a soup
 * taken in order.
 */
export class MeasureSum {
  minX = Infinity; minY = Infinity; minZ = Infinity;
  maxX = -Infinity; maxY = -Infinity; maxZ = -Infinity;
  volume6 = 0;
  area2 = 0;
  degenerate = 0;
  firstNonFinite = -1;
  triangles = 0;
  rx = 0; ry = 0; rz = 0;

  /**
   * Adds triangles [first, last) of `positions`, the next ones of the model (a non-finite coordinate is
   * reported by its place in the model, so `positions` may be a scratch slice); stops at such a coordinate.
   */
  add(positions: Float32Array, first: number, last: number): void {
    if (this.firstNonFinite >= 0 || last <= first) return;
    if (this.triangles === 0) {
      this.rx = positions[first * 9];
      this.ry = positions[first * 9 + 1];
      this.rz = positions[first * 9 + 2];
    }
    let minX = this.minX, minY = this.minY, minZ = this.minZ, maxX = this.maxX, maxY = this.maxY, maxZ = this.maxZ;
    let volume6 = this.volume6, area2 = this.area2, degenerate = this.degenerate;
    const rx = this.rx, ry = this.ry, rz = this.rz;
    for (let t = first, p = first * 9; t < last; t++, p += 9) {
      const ax = positions[p], ay = positions[p + 1], az = positions[p + 2];
      const bx = positions[p + 3], by = positions[p + 4], bz = positions[p + 5];
      const cx = positions[p + 6], cy = positions[p + 7], cz = positions[p + 8];
      const sum = ax + ay + az + bx + by + bz + cx + cy + cz;
      if (sum - sum !== 0) {
        this.firstNonFinite = this.triangles + t - first;
        return;
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
    this.minX = minX; this.minY = minY; this.minZ = minZ;
    this.maxX = maxX; this.maxY = maxY; this.maxZ = maxZ;
    this.volume6 = volume6;
    this.area2 = area2;
    this.degenerate = degenerate;
    this.triangles += last - first;
  }

  result(): Measures {
    if (this.firstNonFinite >= 0 || this.triangles === 0) {
      return { min: [0, 0, 0], max: [0, 0, 0], signedVolume: 0, area: 0, degenerate: 0, firstNonFinite: this.firstNonFinite };
    }
    return {
      min: [this.minX, this.minY, this.minZ],
      max: [this.maxX, this.maxY, this.maxZ],
      signedVolume: this.volume6 / 6,
      area: this.area2 / 2,
      degenerate: this.degenerate,
      firstNonFinite: -1,
    };
  }
}

/** The measures of a whole soup in one pass. */
export function measure(positions: Float32Array): Measures {
  const sum = new MeasureSum();
  sum.add(positions, 0, Math.floor(positions.length / 9));
  return sum.result();
}

/**
 * The measures of an indexed mesh: each slice of triangles is gathered into one reused scratch soup and
 * measured there, so no soup the size of the model is made.
 */
export function measureIndexed(vertices: Float32Array, corners: Int32Array): Measures {
  const sum = new MeasureSum();
  const triangles = Math.floor(corners.length / 3);
  const scratch = new Float32Array(Math.min(triangles, MEASURE_SLICE) * 9);
  for (let first = 0; first < triangles && sum.firstNonFinite < 0; first += MEASURE_SLICE) {
    const last = Math.min(triangles, first + MEASURE_SLICE);
    gatherCorners(vertices, corners, first * 3, last * 3, scratch, 0);
    sum.add(scratch, 0, last - first);
  }
  return sum.result();
}
