// Which way is up in a model's preview. 3MF says Z (its specification) and STL from CAD tools is Z-up by
// custom, but OBJ is Y-up by custom (Blender, Maya and the common test models write it so; Cura reads it
// so): drawn Z-up, an OBJ would lie on its side. The user's own choice is kept per content (SHA-256).
import type { ModelFormat } from '../../common/models/index.ts';

export type UpAxis = 'z' | 'y';

const KEY = 'printdesk.upAxis.';

export function defaultUpAxis(format: ModelFormat): UpAxis {
  return format === 'obj' ? 'y' : 'z';
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be refused (a sandboxed or private context): the defaults still work.
    return null;
  }
}

export function upAxisFor(sha256: string | null | undefined, format: ModelFormat): UpAxis {
  const chosen = sha256 ? storage()?.getItem(KEY + sha256.toLowerCase()) : null;
  return chosen === 'y' || chosen === 'z' ? chosen : defaultUpAxis(format);
}

/**
 * Width, depth and height as the model stands in the preview: with Y up, the file's Z is its depth. The
 * preview turns a Y-up model a quarter turn about X, which keeps its X across.
 */
export function shownSize(size: readonly [number, number, number], up: UpAxis): [number, number, number] {
  return up === 'y' ? [size[0], size[2], size[1]] : [size[0], size[1], size[2]];
}

/** How shownSize's three numbers map to the file's axes, for a tooltip. */
export function shownAxes(up: UpAxis): string {
  return up === 'y' ? "the file's X × Z × Y" : "the file's X × Y × Z";
}

/** Remembers the choice for this content; the format's default is remembered by forgetting. */
export function chooseUpAxis(sha256: string, format: ModelFormat, axis: UpAxis): void {
  const key = KEY + sha256.toLowerCase();
  if (axis === defaultUpAxis(format)) storage()?.removeItem(key);
  else storage()?.setItem(key, axis);
}
