/**
 * The renderer's Content-Security-Policy. index.html carries the same policy in a meta tag (the only
 * way under file:// in Electron); browser mode also sends it as a header, with frame-ancestors.
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

export const BROWSER_MODE_CSP = `${RENDERER_CSP}; frame-ancestors 'none'`;
