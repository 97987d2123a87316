// The Electron window's page comes from app://printdesk/, not file://. A file:// page has privileges no
// web page has (fetching any other file:// URL on the disk among them), which the packaged app switches
// off with the grantFileProtocolExtraPrivileges fuse; app:// is a standard, secure origin of its own that
// serves only the built renderer, with the CSP as a header as well (frame-ancestors needs one).
import { readFile } from 'node:fs/promises';
import { RENDERER_CSP_HEADER } from './csp.ts';
import { contentTypeOf, resolveInside } from '../services/renderer-files.ts';

export const APP_SCHEME = 'app';
const APP_HOST = 'printdesk';
export const RENDERER_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** What registerSchemesAsPrivileged is given, before the app is ready. */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true };

function refuse(status: number): Response {
  return new Response(String(status), { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

/** protocol.handle's handler: files of `rendererDir` only, GET only, nothing from another host. */
export function serveRenderer(rendererDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405);
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return refuse(404);
    const file = resolveInside(rendererDir, decodeURIComponent(url.pathname));
    const bytes = file ? await readFile(file).catch(() => null) : null;
    if (!file || !bytes) return refuse(404);
    return new Response(request.method === 'HEAD' ? null : bytes, {
      headers: { 'content-type': contentTypeOf(file), 'content-security-policy': RENDERER_CSP_HEADER, 'x-content-type-options': 'nosniff' },
    });
  };
}
