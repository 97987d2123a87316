// Points filed by their three 32-bit words (float bits, or a grid's cells) in an open-addressing table, and
// the hash that files them: the weld's table (weld-words.ts), for files whose triangles come in no order and
// for the few points its join must tell apart.

/**
 * A hash of a point's three words, mixed one after the other. The float bits of round numbers (CAD
 * coordinates such as 10 or 0.5) end in many zero bits: each word is folded down before it is
 * multiplied, since a product carries bits upwards only. (Xoring the three words' products, as the grid
 * weld did with its cells, left a lattice of integer points 131,072 slots for 8 million points.)
 */
export function slotHash(x: number, y: number, z: number): number {
  let h = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12) ^ y ^ (y >>> 15), 0x297a2d39);
  h = Math.imul(h ^ (h >>> 15) ^ z ^ (z >>> 15), 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Ids filed by their points' words, which are in a keys array beside it: open addressing, at most half full. */
export class PointTable {
  slots: Int32Array;

  constructor(capacity: number) {
    let size = 32;
    while (size < capacity * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
  }

  /** The id filed for the point (x, y, z) of hash h, or else `id`, filed for it now (its words go to `keys` at id). */
  findOrFile(keys: Int32Array, x: number, y: number, z: number, h: number, id: number): number {
    const { slots } = this;
    const mask = slots.length - 1;
    let slot = h & mask, other = slots[slot];
    while (other !== -1 && (keys[other * 3] !== x || keys[other * 3 + 1] !== y || keys[other * 3 + 2] !== z)) {
      slot = (slot + 1) & mask;
      other = slots[slot];
    }
    if (other !== -1) return other;
    slots[slot] = id;
    return id;
  }

  /** Ids [0, count) of `keys`, all distinct, filed by their `hashes`. */
  fileAll(keys: Int32Array, hashes: Int32Array, count: number): void {
    for (let id = 0; id < count; id++) this.findOrFile(keys, keys[id * 3], keys[id * 3 + 1], keys[id * 3 + 2], hashes[id], id);
  }
}
