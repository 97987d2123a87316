// How sharp a frame of a moving view is drawn. Without a GPU (software WebGL) every pixel costs: a view
// turned at full resolution runs at a frame or two a second. While it moves, the canvas is drawn with
// fewer pixels, as few as keep a frame within a moving frame's budget, and sharp again once it rests.
import { MOVING_FRAME_MS } from './detail-policy.ts';

/** Below this the picture of a moving view is too coarse to follow. */
const SMALLEST = 0.35;

export class MotionResolution {
  /** Share of the canvas's full resolution (per side) that frames of a moving view are drawn at. */
  scale = 1;

  /** What a frame of the moving view cost at the present scale. */
  record(ms: number): void {
    if (!(ms > 0)) return;
    // Pixels, and so the cost in software, go with the square of the scale.
    if (ms > MOVING_FRAME_MS) this.scale = Math.max(SMALLEST, this.scale * Math.sqrt(MOVING_FRAME_MS / ms) * 0.95);
    else if (ms < MOVING_FRAME_MS / 2) this.scale = Math.min(1, this.scale * 1.1);
  }
}

/** Whether WebGL here draws without a GPU (SwiftShader, llvmpipe): multisampling then costs frames their speed. */
export function softwareRendering(): boolean {
  try {
    const canvas = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1) : document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|softpipe|software|basic render/i.test(name);
  } catch {
    return false;
  }
}
