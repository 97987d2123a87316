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
 * Bounding box, volume (signed tetrahedra against the first vertex, which keeps the cancellation small for
 * models far from the origin), area and degenerate triangles in one pass over the soup, in float64.
 */
export function measure(positions: Float32Array): Measures {
  const count = Math.floor(positions.length / 9);
  let minX = Infinity, minY = Infinity, minZ = Infinity;
  let maxX = -Infinity, maxY = -Infinity, maxZ = -Infinity;
  let volume6 = 0;
  let area2 = 0;
  let degenerate = 0;
  const rx = count > 0 ? positions[0] : 0, ry = count > 0 ? positions[1] : 0, rz = count > 0 ? positions[2] : 0;
  for (let t = 0, p = 0; t < count; t++, p += 9) {
    const ax = positions[p], ay = positions[p + 1], az = positions[p + 2];
    const bx = positions[p + 3], by = positions[p + 4], bz = positions[p + 5];
    const cx = positions[p + 6], cy = positions[p + 7], cz = positions[p + 8];
    const sum = ax + ay + az + bx + by + bz + cx + cy + cz;
    if (sum - sum !== 0) return { min: [0, 0, 0], max: [0, 0, 0], signedVolume: 0, area: 0, degenerate: 0, firstNonFinite: t };
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
  if (count === 0) return { min: [0, 0, 0], max: [0, 0, 0], signedVolume: 0, area: 0, degenerate: 0, firstNonFinite: -1 };
  return { min: [minX, minY, minZ], max: [maxX, maxY, maxZ], signedVolume: volume6 / 6, area: area2 / 2, degenerate, firstNonFinite: -1 };
}
