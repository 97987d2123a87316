// The canvas a viewer's stage draws on. Made here, not in Viewer.svelte's markup, because a stage drawn in
// a worker keeps its canvas for good (its control was transferred): a stage kept between previews
// (kept-stage.ts) moves from one viewer to the next with its canvas.

/** A canvas as every viewer shows it: focusable, so the keyboard can turn it (arrows pan, Shift+arrows turn, + and − zoom). */
export function stageCanvas(): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.className = 'stage-canvas';
  canvas.dataset.testid = 'viewer-canvas';
  canvas.tabIndex = 0;
  canvas.title = 'Drag to turn · right-drag or arrows to pan · Shift+arrows to turn · scroll or + − to zoom · F to fit';
  return canvas;
}
