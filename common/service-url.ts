// Pure (no Node, no DOM): the renderer's settings form uses the same check while the user types.
export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; message: string };

/** Loopback is the only place plain http is acceptable: the spec requires HTTPS of clients. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  return /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(host);
}

/** Validates a user-entered service address and normalises it to `…/v2` without a trailing slash. */
export function checkBaseUrl(input: string): BaseUrlCheck {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, message: 'Enter a full address, such as https://api.example.com/v2' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: 'The address must start with https://' };
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return { ok: false, message: 'Use https:// — plain http is only allowed for a service on this computer' };
  }
  if (url.username || url.password) return { ok: false, message: 'The address must not contain a user name or password' };
  if (url.search || url.hash) return { ok: false, message: 'The address must not contain ? or # parts' };
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v2')) return { ok: false, message: 'The address must end in /v2, the API version' };
  return { ok: true, baseUrl: `${url.origin}${path}` };
}
