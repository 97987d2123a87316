// Arrays a pass no longer needs, handed to the next pass to hold its own. Freed arrays are given back to
// the system only after a collection, which a short command never waits for, so new ones add to its peak;
// and every page of a new array is a page fault when first written, 1.3–20 µs each on virtual machines of
// this kind (a 4 MB array: 1.3–20 ms, where the pass that fills it takes a few).

/**
 * `length` zeroed numbers (or as few as `atLeast`, when only that much is spare) carved from the front of
 * one of `spare`, whose rest stays in the list; or a new array of `length`.
 */
export function takeSpare(spare: Int32Array[] | undefined, length: number, atLeast = length): Int32Array {
  if (spare) {
    let best = -1;
    for (let i = 0; i < spare.length; i++) if (spare[i].length >= atLeast && (best < 0 || spare[i].length > spare[best].length)) best = i;
    if (best >= 0) {
      const array = spare[best];
      const taken = Math.min(length, array.length);
      spare[best] = array.subarray(taken);
      return array.subarray(0, taken).fill(0);
    }
  }
  return new Int32Array(length);
}
