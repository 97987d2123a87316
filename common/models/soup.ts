// Triangle soups gathered from a vertex table and its corners. The viewer needs a whole one only for
// per-corner colours; the measures gather one a slice at a time into a scratch buffer.

/** Writes the points of corners [first, end) into `out`, 3 floats each, from float `at` on. */
export function gatherCorners(vertices: Float32Array, corners: Int32Array, first: number, end: number, out: Float32Array, at: number): void {
  for (let c = first, p = at; c < end; c++, p += 3) {
    const v = corners[c] * 3;
    out[p] = vertices[v];
    out[p + 1] = vertices[v + 1];
    out[p + 2] = vertices[v + 2];
  }
}

/** The whole soup: 9 floats per triangle. */
export function soupOf(vertices: Float32Array, corners: Int32Array): Float32Array {
  const soup = new Float32Array(corners.length * 3);
  gatherCorners(vertices, corners, 0, corners.length, soup, 0);
  return soup;
}
