// The route table's types and its lookup. Paths are matched exactly (case and trailing slash
// included) so a client typo shows up against the sandbox instead of in production.
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Db } from './db/open.ts';
import type { JsonBody, Reply } from './http.ts';
import type { UserRow } from './store/accounts.ts';
import type { PasswordChecks } from './password-checks.ts';
import type { TokenService } from './tokens.ts';
import type { UploadRuntime } from './upload-files.ts';

export const API_PREFIX = '/v2';

export interface Services {
  db: Db;
  tokens: TokenService;
  dataDir: string;
  uploads: UploadRuntime;
  passwordChecks: PasswordChecks;
}

export interface RouteContext {
  req: IncomingMessage;
  query: URLSearchParams;
  body: JsonBody;
  /** the request body for `body: 'stream'` routes (the request itself, or a cut copy under a mid-body fault) */
  stream: Readable;
  /** the signed-in user; always set when the route has `auth: true` */
  user: UserRow | null;
  clientIp: string;
  services: Services;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  method: Method;
  /** path below /v2, e.g. "/Auth/Login" */
  path: string;
  auth: boolean;
  /**
   * 'json' = a JSON body is read (bounded) before the handler runs; 'none' = ignored;
   * 'stream' = left unread for the handler (uploads), after auth and rate limit have passed
   */
  body: 'json' | 'none' | 'stream';
  /** who a request counts against for rate limiting; default: the user, else the client IP */
  rateKey?: (ctx: RouteContext) => string;
  /** a rate limit rule counted per client IP alone as well, whatever `rateKey` says (login: a new e-mail does not escape it) */
  ipRule?: string;
  handle(ctx: RouteContext): Promise<Reply> | Reply;
}

/** "Auth/Login" for "/Auth/Login": the key of rate limit rules and fault scopes. */
export function endpointId(route: Route): string {
  return route.path.slice(1);
}

export type Match = { kind: 'route'; route: Route } | { kind: 'not-found' } | { kind: 'method-not-allowed'; allow: string[] };

export function matchRoute(routes: readonly Route[], method: string, pathname: string): Match {
  if (!pathname.startsWith(`${API_PREFIX}/`)) return { kind: 'not-found' };
  const relative = pathname.slice(API_PREFIX.length);
  const candidates = routes.filter((r) => r.path === relative);
  if (candidates.length === 0) return { kind: 'not-found' };
  const route = candidates.find((r) => r.method === method);
  if (route) return { kind: 'route', route };
  return { kind: 'method-not-allowed', allow: candidates.map((r) => r.method) };
}
