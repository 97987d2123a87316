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

export class DetailPolicy {
  private fullMs: number | null = null;
  private proxyMs: number | null = null;
  private readonly fullTriangles: number;
  private readonly proxyTriangles: number;

  constructor(fullTriangles: number, proxyTriangles: number) {
    this.fullTriangles = fullTriangles;
    this.proxyTriangles = Math.max(1, proxyTriangles);
  }

  /**
   * Measured frames of each copy. The least is kept: the first frame of each also compiles shaders and
   * uploads buffers, and a slow frame while the page was busy says little about the next.
   */
  record(proxy: boolean, ms: number): void {
    if (proxy) this.proxyMs = Math.min(this.proxyMs ?? Infinity, ms);
    else this.fullMs = Math.min(this.fullMs ?? Infinity, ms);
  }

  /** Measured or estimated time of a frame of every triangle; null before anything was drawn. */
  fullFrameMs(): number | null {
    if (this.fullMs !== null) return this.fullMs;
    if (this.proxyMs === null) return null;
    return REFRESH_MS + Math.max(0, this.proxyMs - REFRESH_MS) * (this.fullTriangles / this.proxyTriangles);
  }

  /** Whether the next frame draws the proxy. The first does, for a picture at once and a first measure. */
  useProxy(moving: boolean, everyTriangleAsked: boolean): boolean {
    const full = this.fullFrameMs();
    if (full === null) return true;
    if (moving) return full > MOVING_FRAME_MS;
    return !everyTriangleAsked && full > RESTING_FRAME_MS;
  }
}
