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

/** Remembers the choice for this content; the format's default is remembered by forgetting. */
export function chooseUpAxis(sha256: string, format: ModelFormat, axis: UpAxis): void {
  const key = KEY + sha256.toLowerCase();
  if (axis === defaultUpAxis(format)) storage()?.removeItem(key);
  else storage()?.setItem(key, axis);
}
