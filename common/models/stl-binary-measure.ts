// A binary STL's facets copied to positions and measured in one loop. Measuring after copying read every
// float twice and ran two loops per facet: fused, a small file's parse + measures takes about a third
// less, which is what a preview waits for. The sums are the same, in the same order, as MeasureSum's.
import { AREA2, DEGENERATE, DEGENERATE_SIN2, FIRST_FEW, MAX_X, MAX_Y, MAX_Z, MIN_X, MIN_Y, MIN_Z, RX, RY, RZ, VOLUME6, type MeasureSum } from './measure.ts';

/** Where facet 0's first corner lies in a view of the file from its start (see gather in stl-binary.ts). */
const FIRST_CORNER = 96;
const FACET_BYTES = 50;

/**
 * Copies facets [first, last) of `view` to `positions`, whose buffer may be the file's own (each facet's
 * 36 bytes of corners move down to 36·t, below where facet t and every later one are read from; `view`
 * holds the file from its start, or a part read after 84 bytes of room, facet 0 its first) and adds them to `sum`, the next facets of the model. A non-finite coordinate is
 * looked for once per slice, not per facet: it turns the sums of area, volume or the box non-finite.
 * Such a slice is then measured again by `sum.add`, from the positions just written, which names the
 * first triangle that holds one.
 */
export function gatherAndMeasure(view: DataView, positions: Float32Array, first: number, last: number, sum: MeasureSum): void {
  if (sum.firstNonFinite >= 0 || last <= first) return;
  if (sum.triangles === 0) {
    const at = FIRST_CORNER + first * FACET_BYTES;
    sum.state[RX] = view.getFloat32(at, true);
    sum.state[RY] = view.getFloat32(at + 4, true);
    sum.state[RZ] = view.getFloat32(at + 8, true);
  }
  // The model's first slice in two, as MeasureSum.add does (see FIRST_FEW): V8 then compiles the loop
  // knowing the code after it.
  const split = sum.triangles === 0 ? Math.min(last, first + FIRST_FEW) : first;
  if (split > first) measureSlice(view, positions, first, split, sum);
  measureSlice(view, positions, split, last, sum);
}

function measureSlice(view: DataView, positions: Float32Array, first: number, last: number, sum: MeasureSum): void {
  if (sum.firstNonFinite >= 0) return;
  if (copyAndMeasure(view, positions, first, last, sum.state)) sum.counted(last - first);
  else sum.add(positions, first, last);
}

/**
 * The fused loop: true when every sum stayed finite, and only then are they kept in `state`. Its body is
 * measure.ts's addSlice with the copy in front, on purpose: a shared per-facet function would have to
 * hand back nine running values, and V8 keeps them in registers only within one loop.
 */
function copyAndMeasure(view: DataView, positions: Float32Array, first: number, last: number, state: number[]): boolean {
  let minX = state[MIN_X], minY = state[MIN_Y], minZ = state[MIN_Z], maxX = state[MAX_X], maxY = state[MAX_Y], maxZ = state[MAX_Z];
  let volume6 = state[VOLUME6], area2 = state[AREA2], degenerate = state[DEGENERATE];
  const rx = state[RX], ry = state[RY], rz = state[RZ];
  for (let from = FIRST_CORNER + first * FACET_BYTES, p = first * 9, end = last * 9; p < end; from += FACET_BYTES, p += 9) {
    // All nine read before any is written: the positions may lie over the file's own bytes.
    const ax = view.getFloat32(from, true), ay = view.getFloat32(from + 4, true), az = view.getFloat32(from + 8, true);
    const bx = view.getFloat32(from + 12, true), by = view.getFloat32(from + 16, true), bz = view.getFloat32(from + 20, true);
    const cx = view.getFloat32(from + 24, true), cy = view.getFloat32(from + 28, true), cz = view.getFloat32(from + 32, true);
    positions[p] = ax; positions[p + 1] = ay; positions[p + 2] = az;
    positions[p + 3] = bx; positions[p + 4] = by; positions[p + 5] = bz;
    positions[p + 6] = cx; positions[p + 7] = cy; positions[p + 8] = cz;
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
  // NaN anywhere makes the area NaN (every NaN coordinate reaches the normal); ±Infinity reaches the box.
  // Finite float32 coordinates cannot overflow these double sums (their squares stay near 1e77).
  if (!Number.isFinite(minX + minY + minZ + maxX + maxY + maxZ + area2 + volume6)) return false;
  state[MIN_X] = minX; state[MIN_Y] = minY; state[MIN_Z] = minZ;
  state[MAX_X] = maxX; state[MAX_Y] = maxY; state[MAX_Z] = maxZ;
  state[VOLUME6] = volume6;
  state[AREA2] = area2;
  state[DEGENERATE] = degenerate;
  return true;
}
