// Triangle soups gathered from a vertex table and its corners: the viewer needs one for per-corner colours.

/** The whole soup: 9 floats per triangle. */
export function soupOf(vertices: Float32Array, corners: Int32Array | Uint32Array): Float32Array {
  const soup = new Float32Array(corners.length * 3);
  for (let c = 0, p = 0; c < corners.length; c++, p += 3) {
    const v = corners[c] * 3;
    soup[p] = vertices[v];
    soup[p + 1] = vertices[v + 1];
    soup[p + 2] = vertices[v + 2];
  }
  return soup;
}
