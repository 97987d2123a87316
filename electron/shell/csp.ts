/**
 * The renderer's Content-Security-Policy. index.html carries it in a meta tag; browser mode's server and
 * the Electron window's app:// protocol also send it as a header, with frame-ancestors (which only a
 * header can carry).
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Svelte writes style attributes for transitions and bindings; no inline script is allowed.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export const RENDERER_CSP_HEADER = `${RENDERER_CSP}; frame-ancestors 'none'`;
