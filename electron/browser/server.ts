import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { z } from 'zod';
import { eventNames } from '../contract/channels.ts';
import { RENDERER_CSP_HEADER } from '../shell/csp.ts';
import { stageUpload, StagedTooLarge } from './stage.ts';
import type { Host } from '../services/host.ts';
import { encodeFrame } from './frames.ts';
import { contentTypeOf, resolveInside } from '../services/renderer-files.ts';
import { createParking } from './parking.ts';
import { HANDOFF_HEADER, HANDOFF_PATH, HandoffRequest, type HandoffAnswer } from '../services/instance/handoff.ts';

export const BRIDGE_PATH = '/__printdesk/bridge';
export const BRIDGE_SCRIPT_PATH = '/__printdesk/bridge.js';
export const STAGE_PATH = '/__printdesk/stage';
export const BYTES_PATH = '/__printdesk/bytes';

export interface BrowserServerOptions {
  host: Host;
  /** the built renderer (vite's outDir) */
  rendererDir: string;
  /** the built browser-mode bridge script (electron/preload-browser.ts) */
  bridgeScript: string;
  port?: number;
  secret?: string;
  /** where files dropped into the page are copied so the host can read them (browser mode has no file paths) */
  stageDir?: string;
  /** a second launch on the same data folder hands its files over here, with the secret of instance.json */
  handoff?: { secret: string; receive(paths: string[]): HandoffAnswer };
  /** serves the renderer's source maps (off unless asked: they would show its source to any local page) */
  sourceMaps?: boolean;
}

export interface BrowserServer {
  url: string;
  origin: string;
  secret: string;
  /** how many pages are connected now */
  pages(): number;
  close(): Promise<void>;
}

const Call = z.object({ id: z.number().int().nonnegative(), channel: z.string().max(100), input: z.unknown().optional() });


/**
 * Browser mode: the built renderer on 127.0.0.1, and the contract carried over a WebSocket that
 * only a page holding this launch's secret, on our own origin, can open (DNS rebinding and
 * cross-site pages are refused by the Host and Origin checks).
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const secret = options.secret ?? randomBytes(24).toString('base64url');
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  const server = createServer((req, res) => void serveStatic(req, res).catch(() => fail(res, 500)));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const parking = createParking();

  async function serveStatic(req: IncomingMessage, res: ServerResponse) {
    if (!allowedHosts.has(req.headers.host ?? '')) return fail(res, 421);
    const { pathname } = new URL(req.url ?? '/', origin);
    if (req.method === 'POST' && pathname === STAGE_PATH) return stage(req, res);
    if (req.method === 'GET' && pathname === BYTES_PATH) return sendParked(req, res);
    if (req.method === 'POST' && pathname === HANDOFF_PATH) return receiveHandoff(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 405);
    const path = decodeURIComponent(pathname);
    const file = path === BRIDGE_SCRIPT_PATH ? options.bridgeScript : resolveInside(options.rendererDir, path);
    if (!file || (file.endsWith('.map') && !options.sourceMaps)) return fail(res, 404);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return path.includes('.') ? fail(res, 404) : sendIndex(res);
    if (file.endsWith('index.html')) return sendIndex(res);
    res.writeHead(200, headers(contentTypeOf(file), { 'content-length': String(info.size) }));
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  }

  async function sendIndex(res: ServerResponse) {
    const html = await readFile(join(options.rendererDir, 'index.html'), 'utf8');
    // The bridge is a classic script, so it runs before the app's deferred module does.
    const withBridge = html.replace('<head>', `<head><script src="${BRIDGE_SCRIPT_PATH}"></script>`);
    res.writeHead(200, headers(contentTypeOf('index.html'), { 'cache-control': 'no-store' }));
    res.end(withBridge);
  }

  /** Copies one file from the page to disk; only our page with the secret may. */
  async function stage(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin);
    if (!options.stageDir || req.headers.origin !== origin || !sameSecret(url.searchParams.get('secret') ?? '', secret)) return fail(res, 403);
    const path = await stageUpload(req, options.stageDir, url.searchParams.get('name') ?? 'model').catch((error: unknown) => {
      if (!(error instanceof StagedTooLarge)) throw error;
      return null;
    });
    if (!path) return fail(res, 413);
    // The user dropped or picked it in the page: the page may now name it.
    options.host.grantPaths([path]);
    res.writeHead(200, headers('application/json'));
    res.end(JSON.stringify({ path }));
  }

  /**
   * A result's large byte array, once, to our page with the secret and the token its frame named. A
   * same-origin GET carries no Origin header; where the browser says where a fetch came from, it must be us.
   */
  function sendParked(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin);
    const site = req.headers['sec-fetch-site'];
    if ((site !== undefined && site !== 'same-origin') || !sameSecret(url.searchParams.get('secret') ?? '', secret)) return fail(res, 403);
    const bytes = parking.take(url.searchParams.get('token') ?? '');
    if (!bytes) return fail(res, 404);
    res.writeHead(200, headers('application/octet-stream', { 'content-length': String(bytes.byteLength), 'cache-control': 'no-store' }));
    res.end(bytes);
  }

  /** Files from a second launch: only a process that can read this user's instance.json knows the secret. */
  async function receiveHandoff(req: IncomingMessage, res: ServerResponse) {
    // A browser always says where a POST comes from; the second launch is not a page.
    if (!options.handoff || req.headers.origin !== undefined || !sameSecret(String(req.headers[HANDOFF_HEADER] ?? ''), options.handoff.secret)) return fail(res, 403);
    const request = HandoffRequest.safeParse(parseJson(await readSmall(req)));
    if (!request.success) return fail(res, 400);
    res.writeHead(200, headers('application/json', { 'cache-control': 'no-store' }));
    res.end(JSON.stringify(options.handoff.receive(request.data.paths)));
  }

  server.on('upgrade', (req, socket: Socket, head) => {
    // A peer that resets the socket must not take the host down: without a listener, its error is thrown.
    socket.on('error', () => socket.destroy());
    if (!isTrustedUpgrade(req)) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => bridge(ws));
  });

  function isTrustedUpgrade(req: IncomingMessage): boolean {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname !== BRIDGE_PATH) return false;
    if (!allowedHosts.has(req.headers.host ?? '')) return false;
    const originHeader = req.headers.origin ?? '';
    if (originHeader !== origin && originHeader !== `http://localhost:${port}`) return false;
    return sameSecret(url.searchParams.get('secret') ?? '', secret);
  }

  function bridge(ws: WebSocket) {
    const unsubscribers = eventNames.map((event) =>
      options.host.subscribe(event, (payload) => ws.send(JSON.stringify({ event, payload }))),
    );
    ws.on('close', () => {
      unsubscribers.forEach((off) => off());
      parking.drop(ws);
    });
    // Too large a message, invalid UTF-8, a reset: the page is dropped (it reconnects), the host stays up.
    ws.on('error', () => ws.terminate());
    ws.on('message', async (data) => {
      const call = Call.safeParse(parseJson(String(data)));
      if (!call.success) return ws.close(1008, 'Malformed message');
      const result = await options.host.invoke(call.data.channel, call.data.input);
      if (ws.readyState === ws.OPEN) ws.send(encodeFrame({ id: call.data.id, result }, (bytes) => parking.park(bytes, ws)));
    });
  }

  return {
    url: `${origin}/#secret=${secret}`,
    origin,
    secret,
    pages: () => wss.clients.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        parking.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function headers(type: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': type,
    'content-security-policy': RENDERER_CSP_HEADER,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    ...extra,
  };
}

function fail(res: ServerResponse, status: number) {
  res.writeHead(status, headers('text/plain; charset=utf-8'));
  res.end(String(status));
}


function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A request body of at most 1 MiB, as text; more is cut off (and then fails to parse). */
async function readSmall(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1024 * 1024) break;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
