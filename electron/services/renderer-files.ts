// The built renderer's files, as both front doors serve them: browser mode over HTTP on 127.0.0.1, the
// Electron window from app://printdesk/. Only files inside the renderer's folder, whatever the path says.
import { extname, join, normalize, sep } from 'node:path';

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
}

/** The file a URL path names inside `root` ('/' is index.html), or null when it would leave `root`. */
export function resolveInside(root: string, path: string): string | null {
  const file = normalize(join(root, path === '/' ? 'index.html' : path));
  return file === root || file.startsWith(root.endsWith(sep) ? root : root + sep) ? file : null;
}
