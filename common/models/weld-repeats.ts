// Which points may repeat another, told by a bitset of their hashes that fits the cache where a table of
// the points does not: one probe each into the bitset instead of one cache miss each into a table. Only
// the points it picks out (a few percent when they are all distinct, mostly hash collisions) need a table.

/** Bits of the bitset per point: a point's hash then collides with an earlier one's at most 1 time in 16. */
const BITS_PER_POINT = 16;

/** Most bits of a bitset: 32 MiB. Beyond 16M points it has fewer bits a point, and more suspects. */
const MAX_BITSET_BITS = 2 ** 28;

/** A zeroed bitset for repeatSuspects of `count` points: one 32-bit word a point or more (up to 16M), for reuse afterwards. */
export function bitsetFor(count: number): Int32Array {
  let size = 64;
  while (size < count * BITS_PER_POINT && size < MAX_BITSET_BITS) size *= 2;
  return new Int32Array(size >>> 4);
}

/**
 * Points [0, count) whose hash (`hashes[i]`, times `mix`) another point's shares, every one of them (the
 * first included), in order: the only points that may repeat another. Each point's hash marks a bit in
 * `bitset` (made by bitsetFor). Null when no hash is shared; 'many' once `enough` collisions are seen,
 * which mean real repeats (the caller welds them all). The hashes are read from an array, not asked of a
 * function: the points' words were hashed once already, and two calls a point through a function the
 * two welds each pass were half the join's time (23 ms of 500,000 points).
 */
export function repeatSuspects(count: number, hashes: Int32Array, mix: number, bitset: Int32Array, enough = Infinity): Int32Array | null | 'many' {
  const half = bitset.length >>> 1;
  const seen = bitset.subarray(0, half), twice = bitset.subarray(half);
  const mask = half * 32 - 1;
  let collisions = 0;
  for (let i = 0; i < count; i++) {
    const h = Math.imul(hashes[i], mix) & mask;
    const word = h >>> 5, bit = 1 << (h & 31);
    if ((seen[word] & bit) === 0) seen[word] |= bit;
    else {
      twice[word] |= bit;
      if (++collisions >= enough) return 'many';
    }
  }
  if (collisions === 0) return null;
  // Every point of a hash seen k times is a suspect: k ≤ 2·(k - 1) suspects per k - 1 collisions.
  const suspects = new Int32Array(Math.min(count, collisions * 2));
  let n = 0;
  for (let i = 0; i < count; i++) {
    const h = Math.imul(hashes[i], mix) & mask;
    if ((twice[h >>> 5] & (1 << (h & 31))) !== 0) suspects[n++] = i;
  }
  return suspects.subarray(0, n);
}
