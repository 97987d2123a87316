// Which copy of a model the viewer draws: every triangle, unless a frame of them takes longer than the
// page can afford. A frame's cost is measured from the draw call to the next animation frame, which is
// when the page can answer again (without a GPU, Chromium reads every WebGL frame back to the CPU and the
// page waits for it: 2.5 s for 2M triangles in software, where the proxy of 150K takes a fraction).
// Before a frame of every triangle has been measured, its cost is estimated from the proxy's.

/** Above this a moving view draws the proxy: it would no longer follow the pointer. */
export const MOVING_FRAME_MS = 40;
/** Above this a view at rest keeps the proxy too, unless the user asks for every triangle. */
export const RESTING_FRAME_MS = 400;
/** A frame costs at least one display refresh however light it is; only time beyond that scales with triangles. */
const REFRESH_MS = 17;

/** Frames of one copy: the first also compiles shaders and uploads buffers, so it is kept apart. */
interface Frames {
  first: number | null;
  /** The least of the frames after the first: a slow one while the page was busy says little. */
  warm: number | null;
}

export class DetailPolicy {
  private readonly proxy: Frames = { first: null, warm: null };
  private readonly full: Frames = { first: null, warm: null };
  private readonly fullTriangles: number;
  private readonly proxyTriangles: number;

  constructor(fullTriangles: number, proxyTriangles: number) {
    this.fullTriangles = fullTriangles;
    this.proxyTriangles = Math.max(1, proxyTriangles);
  }

  record(proxy: boolean, ms: number): void {
    const frames = proxy ? this.proxy : this.full;
    if (frames.first === null) frames.first = ms;
    else frames.warm = Math.min(frames.warm ?? Infinity, ms);
  }

  /** Whether the next frame of this copy would be its first warm one, and so worth measuring. */
  wantsWarmFrame(proxy: boolean): boolean {
    return (proxy ? this.proxy : this.full).warm === null;
  }

  /**
   * Measured or estimated time of a frame of every triangle; null before a warm frame of either copy. A
   * first frame of every triangle is an upper bound when nothing else is known.
   */
  fullFrameMs(): number | null {
    if (this.full.warm !== null) return this.full.warm;
    if (this.proxy.warm !== null) return REFRESH_MS + Math.max(0, this.proxy.warm - REFRESH_MS) * (this.fullTriangles / this.proxyTriangles);
    return this.full.first;
  }

  /** Whether the next frame draws the proxy. Until a warm frame is measured it does: a picture at once. */
  useProxy(moving: boolean, everyTriangleAsked: boolean): boolean {
    const full = this.fullFrameMs();
    if (full === null) return !everyTriangleAsked;
    if (moving) return full > MOVING_FRAME_MS;
    return !everyTriangleAsked && full > RESTING_FRAME_MS;
  }
}
