// The keys the preview answers to, for the stage that acts on them and for the page that forwards them to
// a stage in a worker: the page must hold back the browser's own use of exactly these (an arrow scrolling
// the page), whichever side runs the stage. OrbitControls takes the arrows (pan, or turn with Shift, Ctrl
// or ⌘); the stage adds + and − to zoom, and F, Home or 0 to fit.

export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const ARROWS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);

export function isFitKey(event: KeyLike): boolean {
  return ['f', 'F', 'Home', '0'].includes(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey;
}

/** How far + or − moves the camera (a factor of its distance), or 0 for any other key. */
export function zoomFactor(event: KeyLike): number {
  // Ctrl or ⌘ with + and − zoom the whole window, as everywhere else in the app.
  if (event.ctrlKey || event.metaKey) return 0;
  if (event.key === '+' || event.key === '=') return 0.85;
  if (event.key === '-' || event.key === '_') return 1 / 0.85;
  return 0;
}

/** Whether the preview acts on this key, so that the page should not. */
export function isViewKey(event: KeyLike): boolean {
  return ARROWS.has(event.code) || isFitKey(event) || zoomFactor(event) !== 0;
}
