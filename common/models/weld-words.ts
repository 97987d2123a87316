// Welding by three 32-bit words a point: its float32s' bits as they lie in the file (no box is needed, so
// a file can be welded as it is read, its box known only at its end, and no float arithmetic is done per
// corner), or its cell on a grid (weld.ts). Points the grid weld would join but whose bits differ (-0 and
// 0, or two within a grid quantum) are joined afterwards, over the unique points only (weld.ts's joinByCell).

/**
 * The table's slot of a point's three words, mixed one after the other. The float bits of round numbers
 * (CAD coordinates such as 10 or 0.5) end in many zero bits: each word is folded down before it is
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

/**
 * Ids of recently seen points by their hash's low bits, in front of the table: a corner is shared by the
 * triangles around it, which a file mostly lists near one another, so most corners are found here without
 * touching the table, whose slots are scattered over megabytes (one cache miss each: 70% of the weld's
 * time on a 1M-triangle file). 16 KiB: it stays in the L1 cache.
 */
const RECENT_BITS = 12;

/** Points welded per touch() of their table slots: enough misses on the way at once, few enough to stay in cache. */
const BATCH = 256;

export interface WordsWelded {
  /** The unique points' words, 3 each, in id order (the order of their first corner). */
  words: Int32Array;
  unique: number;
}

/**
 * Points welded by their words, fed part by part: `add` the points of each part, then `result`. Ids are
 * handed out in the order the points first come. The table is sized to the caller's estimate, at most
 * half full, and doubles when it is passed.
 */
export class WordWelder {
  /** Each id's words, as they were added. */
  private keys: Int32Array;
  private table: Int32Array;
  private readonly recent: Int32Array;
  /** The table and the recent ids, allocated as one. */
  private room: Int32Array;
  private unique = 0;
  /** What touch() read, kept so that the compiler cannot drop the reads. */
  private sink = 0;

  constructor(expectedUnique: number) {
    const capacity = Math.max(16, Math.ceil(expectedUnique));
    this.keys = new Int32Array(capacity * 3);
    // One allocation for the table and the recent ids: each typed array's own costs about 0.7 µs, much
    // of a small model's weld. The keys are apart: they outlive the table (see result).
    const size = tableSize(capacity);
    const room = (this.room = new Int32Array(size + Math.min(1 << RECENT_BITS, size)).fill(-1));
    this.table = room.subarray(0, size);
    this.recent = room.subarray(size);
  }

  /** Welds `count` points of `words` (3 each), which are the model's points `at` onwards; their ids go to `ids` from `at`. */
  add(words: Int32Array, count: number, ids: Int32Array, at: number): void {
    for (let from = 0; from < count; from += BATCH) {
      const to = Math.min(count, from + BATCH);
      this.touch(words, from, to);
      this.addRange(words.subarray(from * 3, to * 3), to - from, ids, at + from);
    }
  }

  /**
   * Reads the table's slot of each point of [from, to) that the recent ids do not hold, and does nothing
   * with it: the reads are independent of one another, so the processor has many cache misses on the
   * way at once, where the weld's own probes wait for each one in turn (each probe decides the next
   * step). The weld then finds those slots in cache. A table of megabytes is one miss a probe, 100–200 ns
   * on this machine kind, and a 1M-triangle file has about 600,000 such probes.
   */
  private touch(words: Int32Array, from: number, to: number): void {
    const { keys, table, recent } = this;
    const mask = table.length - 1, recentMask = recent.length - 1;
    let sink = 0;
    for (let p = from * 3, end = to * 3; p < end; p += 3) {
      const x = words[p], y = words[p + 1], z = words[p + 2];
      const h = slotHash(x, y, z);
      const id = recent[h & recentMask];
      if (id >= 0 && keys[id * 3] === x && keys[id * 3 + 1] === y && keys[id * 3 + 2] === z) continue;
      sink ^= table[h & mask];
    }
    this.sink = sink;
  }

  private addRange(words: Int32Array, count: number, ids: Int32Array, at: number): void {
    const recent = this.recent;
    const recentMask = recent.length - 1;
    let { keys, table, unique } = this;
    let mask = table.length - 1;
    for (let i = 0, p = 0; i < count; i++, p += 3) {
      const x = words[p], y = words[p + 1], z = words[p + 2];
      const h = slotHash(x, y, z);
      let id = recent[h & recentMask];
      if (id < 0 || keys[id * 3] !== x || keys[id * 3 + 1] !== y || keys[id * 3 + 2] !== z) {
        let slot = h & mask;
        id = table[slot];
        while (id !== -1 && (keys[id * 3] !== x || keys[id * 3 + 1] !== y || keys[id * 3 + 2] !== z)) {
          slot = (slot + 1) & mask;
          id = table[slot];
        }
        if (id === -1) {
          if (unique * 3 === keys.length) {
            this.unique = unique;
            this.grow();
            ({ keys, table } = this);
            mask = table.length - 1;
            slot = h & mask;
            while (table[slot] !== -1) slot = (slot + 1) & mask;
          }
          id = unique++;
          table[slot] = id;
          keys[id * 3] = x;
          keys[id * 3 + 1] = y;
          keys[id * 3 + 2] = z;
        }
        recent[h & recentMask] = id;
      }
      ids[at + i] = id;
    }
    this.unique = unique;
  }

  /** The unique points' words: a view of the keys, which leaves the table to be collected with the welder. */
  result(): WordsWelded {
    return { words: this.keys.subarray(0, this.unique * 3), unique: this.unique };
  }

  /** The weld's memory (its table, its keys: the points of result()), for the caller to reuse once done with both. */
  memory(): Int32Array[] {
    return [this.keys, this.room];
  }

  /** Twice the room: the keys copied, the table built anew from them. */
  private grow(): void {
    const { keys, unique } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.keys.set(keys);
    const table = (this.table = this.room = new Int32Array(tableSize(this.keys.length / 3)).fill(-1));
    const mask = table.length - 1;
    for (let id = 0; id < unique; id++) {
      let slot = slotHash(keys[id * 3], keys[id * 3 + 1], keys[id * 3 + 2]) & mask;
      while (table[slot] !== -1) slot = (slot + 1) & mask;
      table[slot] = id;
    }
  }
}

/** A power of two at least twice `capacity`: the table is then never more than half full. */
function tableSize(capacity: number): number {
  let size = 32;
  while (size < capacity * 2) size *= 2;
  return size;
}
