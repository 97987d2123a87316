// The beam lattice extension describes struts, not triangles. We draw each beam as a closed 8-sided frustum
// so the preview shows the part and the size is right; joints are not blended, so overlapping struts are
// counted twice in the volume (said in a warning).
import { ModelParseError } from './errors.ts';
import type { GrowableFloat32, GrowableInt32 } from './growable.ts';

export interface Beams {
  radius: number;
  /** v1, v2, r1, r2 per beam. */
  list: number[];
}

const SIDES = 8;

function basis(dx: number, dy: number, dz: number): [number, number, number, number, number, number] {
  // Cross with the axis the beam is least aligned with, for a well-conditioned perpendicular.
  const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz);
  const [ex, ey, ez] = ax <= ay && ax <= az ? [1, 0, 0] : ay <= az ? [0, 1, 0] : [0, 0, 1];
  let ux = dy * ez - dz * ey, uy = dz * ex - dx * ez, uz = dx * ey - dy * ex;
  const length = Math.hypot(ux, uy, uz);
  ux /= length; uy /= length; uz /= length;
  return [ux, uy, uz, dy * uz - dz * uy, dz * ux - dx * uz, dx * uy - dy * ux];
}

export function addBeams(beams: Beams, vertices: GrowableFloat32, triangles: GrowableInt32, warnings: string[]): void {
  const vertexCount = vertices.length / 3;
  const list = beams.list;
  let drawn = 0;
  for (let b = 0; b < list.length; b += 4) {
    const v1 = list[b], v2 = list[b + 1], r1 = list[b + 2], r2 = list[b + 3];
    if (!(v1 >= 0 && v1 < vertexCount && v2 >= 0 && v2 < vertexCount)) {
      throw new ModelParseError('INDEX_OUT_OF_RANGE', `Beam ${b / 4 + 1} joins vertices ${v1} and ${v2}, but the mesh has ${vertexCount}.`);
    }
    const d = vertices.data;
    const x1 = d[v1 * 3], y1 = d[v1 * 3 + 1], z1 = d[v1 * 3 + 2];
    const x2 = d[v2 * 3], y2 = d[v2 * 3 + 1], z2 = d[v2 * 3 + 2];
    const length = Math.hypot(x2 - x1, y2 - y1, z2 - z1);
    if (!(length > 0)) continue;
    const [ux, uy, uz, wx, wy, wz] = basis((x2 - x1) / length, (y2 - y1) / length, (z2 - z1) / length);
    const base = vertices.length / 3;
    vertices.reserve(SIDES * 6 + 6);
    const out = vertices.data;
    let k = vertices.length;
    for (const [cx, cy, cz, r] of [[x1, y1, z1, r1], [x2, y2, z2, r2]]) {
      for (let s = 0; s < SIDES; s++) {
        const angle = (2 * Math.PI * s) / SIDES;
        const c = Math.cos(angle) * r, n = Math.sin(angle) * r;
        out[k++] = cx + c * ux + n * wx;
        out[k++] = cy + c * uy + n * wy;
        out[k++] = cz + c * uz + n * wz;
      }
    }
    out.set([x1, y1, z1, x2, y2, z2], k);
    vertices.length = k + 6;
    const bottom = base + 2 * SIDES, top = bottom + 1;
    triangles.reserve(SIDES * 12);
    const t = triangles.data;
    let j = triangles.length;
    for (let s = 0; s < SIDES; s++) {
      const a0 = base + s, a1 = base + ((s + 1) % SIDES), b0 = a0 + SIDES, b1 = a1 + SIDES;
      t.set([a0, a1, b1, a0, b1, b0, bottom, a1, a0, top, b0, b1], j);
      j += 12;
    }
    triangles.length = j;
    drawn++;
  }
  if (drawn > 0) warnings.push(`The beam lattice (${drawn} beams) is drawn as separate struts; its volume counts overlaps at the joints twice.`);
}
