// A proxy's triangles packed for the way from the host to the window: each point once, its coordinates as
// 16-bit steps across the model's box, and each corner as the difference from the corner before, in a
// variable number of bytes. A 2M-triangle model's first picture (131K triangles) is then about 1 MB where
// its 9 floats a triangle are 4.7 MB. Bytes, not calls, are what a first picture waits on: browser mode's
// loopback fetch took 170 ms for those 4.7 MB here, and Electron's IPC copies every byte too. A picture is
// a picture: a 100 mm model's points move by under 2 µm.
import { soupOf } from './soup.ts';
import { weldWords } from './weld-words.ts';

export interface PackedTriangles {
  /** The box the steps span: min x, y, z, then max x, y, z. */
  box: number[];
  /** 3 unsigned 16-bit steps per point, little-endian, in the order the triangles first use them. */
  points: Uint8Array<ArrayBuffer>;
  /** Each corner's point as a zigzag LEB128 varint of its difference from the corner before. */
  corners: Uint8Array<ArrayBuffer>;
  triangles: number;
}

const STEPS = 65535;

/** The triangles of `positions` (9 floats each) packed; what `unpackTriangles` reads back within a step. */
export function packTriangles(positions: Float32Array): PackedTriangles {
  const corners = Math.floor(positions.length / 9) * 3;
  const { ids, words, unique } = weldWords(new Int32Array(positions.buffer, positions.byteOffset, corners * 3), corners, corners / 2);
  const points = new Float32Array(words.buffer, words.byteOffset, unique * 3);
  const box = boxOf(points);
  return { box, points: quantized(points, box), corners: varints(ids), triangles: corners / 3 };
}

type Packed = { box: number[]; points: Uint8Array; corners: Uint8Array; triangles: number };

/** The triangles as each point once (3 floats each, at its step) and each triangle's 3 points. */
export function unpackIndexed({ box, points, corners, triangles }: Packed): { points: Float32Array; indices: Uint32Array } {
  const table = pointsOf(points, box);
  const unique = table.length / 3;
  const indices = new Uint32Array(triangles * 3);
  const end = corners.length;
  let at = 0, id = 0;
  for (let corner = 0; corner < indices.length; corner++) {
    let raw = 0, shift = 0, byte = 0x80;
    while (byte & 0x80) {
      if (at >= end || shift > 28) throw new Error('The picture is cut short');
      byte = corners[at++];
      raw |= (byte & 0x7f) << shift;
      shift += 7;
    }
    id += (raw >>> 1) ^ -(raw & 1);
    if (id < 0 || id >= unique) throw new Error('The picture names a point it does not hold');
    indices[corner] = id;
  }
  return { points: table, indices };
}

/** The triangles as 9 floats each, every corner at its point's step. */
export function unpackTriangles(packed: Packed): Float32Array {
  const { points, indices } = unpackIndexed(packed);
  return soupOf(points, indices);
}

/** Each point's coordinates, from its steps across the box. */
function pointsOf(points: Uint8Array, box: number[]): Float32Array {
  // A view at an odd place in a larger message cannot be read as 16-bit words where it lies.
  const aligned = points.byteOffset % 2 === 0 ? points : points.slice();
  const steps = new Uint16Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 6) * 3);
  const table = new Float32Array(steps.length);
  for (let axis = 0; axis < 3; axis++) {
    const min = box[axis], scale = (box[axis + 3] - box[axis]) / STEPS;
    for (let i = axis; i < steps.length; i += 3) table[i] = min + steps[i] * scale;
  }
  return table;
}

function boxOf(points: Float32Array): number[] {
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i += 3) {
    for (let axis = 0; axis < 3; axis++) {
      const v = points[i + axis];
      if (v < box[axis]) box[axis] = v;
      if (v > box[axis + 3]) box[axis + 3] = v;
    }
  }
  return points.length ? box : [0, 0, 0, 0, 0, 0];
}

function quantized(points: Float32Array, box: number[]): Uint8Array<ArrayBuffer> {
  const steps = new Uint16Array(points.length);
  for (let axis = 0; axis < 3; axis++) {
    const extent = box[axis + 3] - box[axis];
    const per = extent > 0 ? STEPS / extent : 0;
    for (let i = axis; i < points.length; i += 3) steps[i] = Math.round((points[i] - box[axis]) * per);
  }
  return new Uint8Array(steps.buffer);
}

function varints(ids: Int32Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(ids.length * 5);
  let at = 0, previous = 0;
  for (const id of ids) {
    const delta = id - previous;
    previous = id;
    let zigzag = ((delta << 1) ^ (delta >> 31)) >>> 0;
    while (zigzag >= 0x80) {
      out[at++] = (zigzag & 0x7f) | 0x80;
      zigzag >>>= 7;
    }
    out[at++] = zigzag;
  }
  return out.slice(0, at);
}
