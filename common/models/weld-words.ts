// Welding by three 32-bit words a point: its float32s' bits as they lie in the file (no box is needed, so
// a file can be welded as it is read, its box known only at its end, and no float arithmetic is done per
// corner), or its cell on a grid (weld.ts). Points the grid weld would join but whose bits differ (-0 and
// 0, or two within a grid quantum) are joined at the end, with the window's repeats (result's joinBy).
//
// Why not one table of every point, looked up per corner: on a 1M-triangle model its table and keys are
// 10 MB, past this machine kind's cache, and each lookup that missed the cache waited 100–350 ns: 600,000
// of them took 230 ms, nine tenths of the weld. A file lists the triangles around a point near one
// another, so the weld looks only among recently seen points as it reads, and gives any point not among
// them a new id; a point that comes back after it left the window gets a second id. Those are joined at
// the end, where a bitset picks out the few points that may repeat (weld-repeats.ts) and only they go
// through a table. A file whose triangles come in no order (most corners new to the window) is welded
// through the table as it is read instead, which is no slower than the window's ids and far leaner.
import { PointTable, slotHash } from './point-table.ts';
import { bitsetFor, repeatSuspects } from './weld-repeats.ts';

/**
 * The window of recently seen points, by their hash's low bits: 64 KiB, which stays in the L2 cache. On a
 * 1M-triangle torus whose rows are 1,000 points long, 2^12 slots let 22% more ids through than there are
 * points, 2^14 slots 6%.
 */
const RECENT_BITS = 14;

/**
 * A point's slot in the window as it is read: every corner is looked up there, and only the points new to
 * it (a sixth of a closed mesh's corners) need slotHash, for the join and the table. Each word is folded
 * down (as in slotHash: round numbers' bits are all high) and multiplied, the three side by side rather
 * than one after the other, and the slot is the sum's top bits, to which every bit below carries. The
 * window then holds points as well as with slotHash (the corpus's and the torus's ids handed out within
 * 0.2%), and a 1M-triangle torus's 3M corners are read and welded in 30 ms instead of 36.
 */
function windowSlot(x: number, y: number, z: number): number {
  return (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + Math.imul(y ^ (y >>> 15), 0x297a2d39) + Math.imul(z ^ (z >>> 15), 0x85ebca6b)) >>> (32 - RECENT_BITS);
}

/**
 * Room in the keys for ids the window hands out again (6% more than the points on the torus above): the
 * keys doubling, their first pages copied to new ones, cost more than a quarter of the weld there.
 */
const WINDOW_REPEATS = 1.25;

/** Spreads a hash's bits anew, so that the bitset's bits and a table's slots (both low bits) do not go together. */
const BITSET_MIX = 0x9e3779b1;

/**
 * After this many points, a window handing out a new id for more than half of them (a closed mesh's are
 * about a sixth) is given up for the table: its ids would be most of the corners, each joined at the end.
 */
const WINDOW_TRIAL = 1 << 16;

/** Points looked up in the table per touch() of their slots: enough misses on the way at once, few enough to stay in cache. */
const TOUCH_BATCH = 256;

/**
 * The words a point is joined by at the end, in place of its own (which are float bits): its cell on a grid
 * (weld.ts's cellsOn), written to words at·3 to at·3 + 2 of `out`. `points` are the welder's keys as floats.
 */
export type JoinWords = (points: Float32Array, id: number, out: Int32Array, at: number) => void;

export interface WordsWelded {
  /** The unique points' words, 3 each, in id order (the order of their first corner). */
  words: Int32Array;
  unique: number;
}

/**
 * `count` points of `words` (3 each) welded at once, joined by `joinBy` when given (see WordWelder.result):
 * each point's id, and the unique points' words.
 */
export function weldWords(words: Int32Array, count: number, expectedUnique: number, joinBy?: JoinWords): WordsWelded & { ids: Int32Array } {
  const ids = new Int32Array(count);
  const welder = new WordWelder(expectedUnique, ids);
  welder.add(words, count);
  return { ids, ...welder.result(joinBy) };
}

/**
 * Points welded by their words, fed part by part: `add` the points of each part, in order, then `result`,
 * which sets every point's id in `ids` (until then they may hold the window's ids, see above). Ids are
 * handed out in the order the points first come.
 */
export class WordWelder {
  /** Each id's words, as they were handed out: after result(), each unique point's. */
  private keys: Int32Array;
  /** Each id's slotHash, kept as it is handed out for the join (joinRepeats), which would hash it again twice. */
  private hashes: Int32Array;
  private readonly recent = new Int32Array(1 << RECENT_BITS).fill(-1);
  /** Every point so far, once the window is given up (see WINDOW_TRIAL). */
  private table: PointTable | null = null;
  private handedOut = 0;
  private added = 0;
  private welded: WordsWelded | null = null;
  /** What touch() read, kept so that the compiler cannot drop the reads. */
  private sink = 0;
  /** The bitset of the join, kept for scratch() when there was one. */
  private bitset: Int32Array | null = null;
  private readonly ids: Int32Array;

  /**
   * `expectedUnique` sizes the keys (with room for the window's repeats), which double when passed; `ids`
   * receives each added point's id.
   */
  constructor(expectedUnique: number, ids: Int32Array) {
    this.ids = ids;
    this.keys = new Int32Array(Math.max(16, Math.ceil(expectedUnique * WINDOW_REPEATS)) * 3);
    this.hashes = new Int32Array(this.keys.length / 3);
  }

  /** Welds `count` points of `words` (3 each), the next points of the model. */
  add(words: Int32Array, count: number): void {
    if (this.table) this.addThroughTable(words, count);
    else this.addThroughWindow(words, count);
    this.added += count;
    if (!this.table && this.added >= WINDOW_TRIAL && this.handedOut * 2 > this.added) this.giveUpWindow();
  }

  /**
   * The unique points' words (a view of the keys); every added point's id is set in `ids` from here on.
   * With `joinBy`, points are one where their words by it are (each keeps its first point's own words):
   * a grid's cell joins points whose bits differ (-0 and 0, or two within a quantum) in the same pass that
   * joins the window's repeats, instead of a second pass over the unique points after it.
   */
  result(joinBy?: JoinWords): WordsWelded {
    if (!this.welded) {
      const unique = joinBy ? this.joinRepeats(joinBy) : this.table ? this.handedOut : this.joinRepeats(null);
      this.welded = { words: this.keys.subarray(0, unique * 3), unique };
    }
    return this.welded;
  }

  /** The weld's own memory (its hashes, its bitset, its table), for the caller to reuse once it has the result(). */
  scratch(): Int32Array[] {
    return [this.hashes, this.bitset, this.table?.slots].filter((array): array is Int32Array => array !== undefined && array !== null);
  }

  /** All the weld's memory (its scratch, and its keys: the points of result()), for the caller to reuse once done with both. */
  memory(): Int32Array[] {
    return [this.keys, ...this.scratch()];
  }

  private addThroughWindow(words: Int32Array, count: number): void {
    const { recent, ids } = this;
    let { keys, hashes, handedOut } = this;
    for (let p = 0, at = this.added, end = this.added + count; at < end; at++, p += 3) {
      const x = words[p], y = words[p + 1], z = words[p + 2];
      const slot = windowSlot(x, y, z);
      let id = recent[slot];
      if (id < 0 || keys[id * 3] !== x || keys[id * 3 + 1] !== y || keys[id * 3 + 2] !== z) {
        if (handedOut * 3 === keys.length) ({ keys, hashes } = this.grow());
        id = handedOut++;
        keys[id * 3] = x;
        keys[id * 3 + 1] = y;
        keys[id * 3 + 2] = z;
        hashes[id] = slotHash(x, y, z);
        recent[slot] = id;
      }
      ids[at] = id;
    }
    this.handedOut = handedOut;
  }

  /** As addThroughWindow, but a point the window does not hold is looked up among all the points so far. */
  private addThroughTable(words: Int32Array, count: number): void {
    for (let from = 0; from < count; from += TOUCH_BATCH) {
      const to = Math.min(count, from + TOUCH_BATCH);
      this.touch(words, from, to);
      this.lookUp(words, from, to);
    }
  }

  /**
   * Reads the table's slot of each point of [from, to) that the window does not hold, and does nothing
   * with it: the reads are independent of one another, so the processor has many cache misses on the way
   * at once, where the lookups wait for each in turn (each probe decides the next). The lookups then find
   * those slots in cache: for a 1M-triangle file in no order, 1.1 s without this, 0.65 s with it.
   */
  private touch(words: Int32Array, from: number, to: number): void {
    const { keys, recent } = this;
    const slots = this.table!.slots;
    const mask = slots.length - 1, recentMask = recent.length - 1;
    let sink = 0;
    for (let p = from * 3, end = to * 3; p < end; p += 3) {
      const x = words[p], y = words[p + 1], z = words[p + 2];
      const h = slotHash(x, y, z);
      const id = recent[h & recentMask];
      if (id >= 0 && keys[id * 3] === x && keys[id * 3 + 1] === y && keys[id * 3 + 2] === z) continue;
      sink ^= slots[h & mask];
    }
    this.sink = sink;
  }

  private lookUp(words: Int32Array, from: number, to: number): void {
    const { recent, ids } = this;
    const recentMask = recent.length - 1;
    let { keys, hashes, handedOut, table } = this;
    for (let p = from * 3, at = this.added + from, end = this.added + to; at < end; at++, p += 3) {
      const x = words[p], y = words[p + 1], z = words[p + 2];
      const h = slotHash(x, y, z);
      let id = recent[h & recentMask];
      if (id < 0 || keys[id * 3] !== x || keys[id * 3 + 1] !== y || keys[id * 3 + 2] !== z) {
        if (handedOut * 3 === keys.length) ({ keys, hashes } = this.grow());
        if (handedOut * 2 >= table!.slots.length) table = this.growTable(handedOut);
        id = table!.findOrFile(keys, x, y, z, h, handedOut);
        if (id === handedOut) {
          handedOut++;
          keys[id * 3] = x;
          keys[id * 3 + 1] = y;
          keys[id * 3 + 2] = z;
          hashes[id] = h;
        }
        recent[h & recentMask] = id;
      }
      ids[at] = id;
    }
    this.handedOut = handedOut;
  }

  /** Twice the room, the keys and hashes copied. */
  private grow(): { keys: Int32Array; hashes: Int32Array } {
    const keys = new Int32Array(this.keys.length * 2);
    keys.set(this.keys);
    const hashes = new Int32Array(this.hashes.length * 2);
    hashes.set(this.hashes);
    this.keys = keys;
    this.hashes = hashes;
    return { keys, hashes };
  }

  /**
   * A table of twice the room, the `handedOut` points so far filed anew: the lookup's own count, which is
   * ahead of this.handedOut within a part (filing only those, the points new in the part before the table
   * grew were not found again, and came back as new points).
   */
  private growTable(handedOut: number): PointTable {
    const table = (this.table = new PointTable(this.table!.slots.length));
    table.fileAll(this.keys, this.hashes, handedOut);
    return table;
  }

  /** The points so far joined, then all of them filed in a table that every later point goes through. */
  private giveUpWindow(): void {
    this.handedOut = this.joinRepeats(null);
    // The window's ids were renumbered by the join.
    this.recent.fill(-1);
    this.table = new PointTable(Math.max(this.handedOut, this.keys.length / 3));
    this.table.fileAll(this.keys, this.hashes, this.handedOut);
  }

  /**
   * Joins the ids of points that came back after leaving the window (or, with `joinBy`, that share its
   * words): each keeps its first id, the ids are numbered anew without the gaps, and the keys and `ids`
   * follow. Returns how many points are unique.
   */
  private joinRepeats(joinBy: JoinWords | null): number {
    const { keys, hashes, handedOut: count, ids } = this;
    const joined = joinBy ? { points: new Float32Array(keys.buffer, keys.byteOffset, count * 3), by: joinBy } : null;
    // The table, the only other reader of the hashes, takes no more points once the join is asked for.
    if (joined) hashJoinWords(joined, count, hashes);
    const bitset = (this.bitset = bitsetFor(count));
    const suspects = repeatSuspects(count, hashes, BITSET_MIX, bitset);
    if (suspects === null || suspects === 'many') return count;
    const firstOf = firstOfEach(suspects, keys, hashes, joined);
    // The bitset is done with: it holds the new numbers when it has room for one a point (see bitsetFor).
    const renumbered = bitset.length >= count ? bitset : new Int32Array(count);
    let unique = 0;
    for (let id = 0, s = 0; id < count; id++) {
      const first = s < suspects.length && suspects[s] === id ? firstOf[s++] : id;
      if (first !== id) {
        renumbered[id] = renumbered[first];
        continue;
      }
      keys[unique * 3] = keys[id * 3];
      keys[unique * 3 + 1] = keys[id * 3 + 1];
      keys[unique * 3 + 2] = keys[id * 3 + 2];
      hashes[unique] = hashes[id];
      renumbered[id] = unique++;
    }
    if (unique === count) return count;
    for (let at = 0; at < this.added; at++) ids[at] = renumbered[ids[at]];
    return unique;
  }
}

/** The points (the keys as floats) and the words they are joined by. */
interface Joined {
  points: Float32Array;
  by: JoinWords;
}

/** Each of points [0, count)'s words by the join, hashed into `hashes` in place of its own words' hash. */
function hashJoinWords({ points, by }: Joined, count: number, hashes: Int32Array): void {
  const words = new Int32Array(3);
  for (let id = 0; id < count; id++) {
    by(points, id, words, 0);
    hashes[id] = slotHash(words[0], words[1], words[2]);
  }
}

/**
 * For each of `listed` (ids in increasing order), the first listed id whose words are its own: its keys, or
 * its words by the join when there is one. Their words and hashes are laid side by side for the table.
 */
function firstOfEach(listed: Int32Array, keys: Int32Array, hashes: Int32Array, joined: Joined | null): Int32Array {
  const words = new Int32Array(listed.length * 3);
  const listedHashes = new Int32Array(listed.length);
  for (let s = 0; s < listed.length; s++) {
    const id = listed[s];
    if (joined) joined.by(joined.points, id, words, s);
    else words.set(keys.subarray(id * 3, id * 3 + 3), s * 3);
    listedHashes[s] = hashes[id];
  }
  const table = new PointTable(listed.length);
  const firstOf = new Int32Array(listed.length);
  for (let s = 0; s < listed.length; s++) firstOf[s] = listed[table.findOrFile(words, words[s * 3], words[s * 3 + 1], words[s * 3 + 2], listedHashes[s], s)];
  return firstOf;
}
