import { z } from 'zod';
import { HostError, isUnreachable } from './errors.ts';
import { decodeEnvelope } from './envelope.ts';
import { retryDelayMs } from './backoff.ts';
import { routes, routeUrl, type Route, type RouteName } from './routes.ts';
import { ProjectAccess, ProjectList, TokenPair } from './schemas.ts';
import { fetchBytes } from './download.ts';
import { abortableSleep as defaultSleep, header, send, stopped, type HttpResponse } from './transport.ts';

/** Where the client gets its bearer token; the session owns the refresh logic. */
export interface TokenSource {
  accessToken(): Promise<string>;
  /** Called once after a 401 with the token that failed; returns a fresh one or throws. */
  renewAfterRejection(rejected: string): Promise<string>;
}

export interface RateLimitInfo {
  limit?: number;
  remaining?: number;
  resetSeconds?: number;
}

export interface ApiClientOptions {
  baseUrl: string;
  /** what local data (session, drafts, choices) is keyed by; the embedded sandbox's port changes every launch */
  serviceKey?: string;
  tokens?: TokenSource;
  timeoutMs?: number;
  maxRetries?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** told after every exchange whether the service answered (any HTTP answer) or could not be reached */
  /** `confirm`: a failure seen outside the API's calls (an upload), to be checked before it counts. */
  onReachability?: (reachable: boolean, confirm?: boolean) => void;
  /** asked before every request: an error to fail with instead of calling the service (Work offline), or null */
  gate?: () => HostError | null;
  /** once aborted, requests on their way end at once and no new one goes (CANCELLED): the CLI's Ctrl+C */
  signal?: AbortSignal;
}

export interface CallOptions {
  query?: Record<string, string>;
  body?: unknown;
  /** a bearer for a route that needs none to succeed (refresh: see docs/api-assumptions.md) */
  bearer?: string;
}

// A download's whole body, not one answer: room for a large model on a slow link.
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * Runs a request with the access token; a 401 renews the token once and runs it again. A second 401 is
 * the service's final word, left to the caller to report.
 */
export async function withFreshToken<R extends { status: number }>(tokens: TokenSource | undefined, attempt: (token: string) => Promise<R>): Promise<R> {
  if (!tokens) throw new HostError('NOT_SIGNED_IN', 'Sign in first');
  const token = await tokens.accessToken();
  const response = await attempt(token);
  if (response.status !== 401) return response;
  return attempt(await tokens.renewAfterRejection(token));
}

export function createApiClient(options: ApiClientOptions) {
  const { baseUrl, tokens, timeoutMs = 30_000, maxRetries = 3, sleep = defaultSleep, random = Math.random, onReachability, gate, signal } = options;
  const rateLimits = new Map<RouteName, RateLimitInfo>();

  function pass() {
    if (signal?.aborted) throw stopped();
    const closed = gate?.();
    if (closed) throw closed;
  }

  async function call<S extends z.ZodType>(name: RouteName, schema: S, callOptions: CallOptions = {}): Promise<z.output<S>> {
    pass();
    const route: Route = routes[name];
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await authorised(route, callOptions);
        rateLimits.set(name, rateLimitOf(response));
        return decodeEnvelope(`${route.method} /${route.path}`, response, schema);
      } catch (error) {
        if (!shouldRetry(route, error, attempt)) throw error;
        await sleep(retryDelayMs(attempt, (error as HostError).retryAfterSeconds, { random }), signal);
        pass();
      }
    }
  }

  function shouldRetry(route: Route, error: unknown, attempt: number): boolean {
    if (!route.safe || attempt >= maxRetries || !(error instanceof HostError)) return false;
    // Refused connections mean the service is not there: tell the user now rather than after backoff.
    if (error.code === 'OFFLINE' && error.details?.ambiguous === false) return false;
    // A long Retry-After is the user's to wait for, not a hidden pause.
    if (error.code === 'RATE_LIMITED' && (error.retryAfterSeconds ?? 0) > 30) return false;
    return error.retryable;
  }

  function authorised(route: Route, callOptions: CallOptions): Promise<HttpResponse> {
    if (!route.auth) return exchange(route, callOptions, callOptions.bearer);
    return withFreshToken(tokens, (token) => exchange(route, callOptions, token));
  }

  /**
   * A file from the service; null when it has none to give (404: no such model, file or endpoint).
   * Other failures come as the envelope's error, like any call.
   */
  async function download(name: RouteName, query: Record<string, string>, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
    pass();
    const route: Route = routes[name];
    const url = routeUrl(baseUrl, route, query);
    const response = await withFreshToken(tokens, (token) => fetchBytes({ url, headers: { authorization: `Bearer ${token}` }, timeoutMs: DOWNLOAD_TIMEOUT_MS }, maxBytes));
    if (response.bytes) return response.bytes;
    if (response.status === 404 || response.status === 405) return null;
    decodeEnvelope(`${route.method} /${route.path}`, response, z.unknown());
    throw new HostError('INTERNAL_ERROR', `GET /${route.path} answered ${response.status} without a file`, { status: response.status });
  }

  function exchange(route: Route, callOptions: CallOptions, token: string | undefined): Promise<HttpResponse> {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    return send({ method: route.method, url: routeUrl(baseUrl, route, callOptions.query), headers, json: callOptions.body, timeoutMs, signal }).then(
      (response) => {
        onReachability?.(true);
        return response;
      },
      (error: unknown) => {
        if (isUnreachable(error)) onReachability?.(false);
        throw error;
      },
    );
  }

  return {
    baseUrl,
    serviceKey: options.serviceKey ?? baseUrl,
    call,
    download,
    /** Throws the gate's error when requests may not go out now (Work offline): for requests made outside `call`. */
    pass,
    /** What a request made outside `call` (an upload's body) learnt of the service's reachability. */
    noteReachability: (reachable: boolean, confirm?: boolean) => onReachability?.(reachable, confirm),
    rateLimit: (name: RouteName) => rateLimits.get(name),
    /** Aborted once the client's owner stops (the CLI's Ctrl+C): waits of its callers end with it. */
    signal,
    login: (email: string, password: string) => call('login', TokenPair, { body: { email, password } }),
    /** With the last access token, expired or not: section 5 asks for the header on every call but login. */
    refresh: (refreshToken: string, lastAccessToken?: string | null) => call('refreshToken', TokenPair, { body: { refreshToken }, bearer: lastAccessToken ?? undefined }),
    getProjects: () => call('getProjects', ProjectList),
    hasAccessToProject: (projectId: string) => call('hasAccessToProject', ProjectAccess, { query: { projectId } }),
  };
}

function rateLimitOf(response: HttpResponse): RateLimitInfo {
  const number = (name: string) => {
    const value = Number(header(response.headers[name]));
    return Number.isFinite(value) ? value : undefined;
  };
  return {
    limit: number('x-ratelimit-limit'),
    remaining: number('x-ratelimit-remaining'),
    resetSeconds: number('x-ratelimit-reset'),
  };
}
