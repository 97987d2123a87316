// One request's way through the sandbox: faults → route → auth and body → rate limit → handler
// → faults again → answer. Every outcome, including 404/405 and injected ones, is an envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ADMIN_PREFIX, handleAdmin } from './admin.ts';
import { cutBodyAfter } from './body-cut.ts';
import type { FaultInjector, FaultPlan } from './faults.ts';
import { errorReply, failure, readJsonBody, sendReply } from './http.ts';
import type { IncidentLog, JsonBody, Reply } from './http.ts';
import type { RateDecision, RateLimiter } from './rate-limit.ts';
import { endpointId, matchRoute } from './router.ts';
import type { Route, RouteContext, Services } from './router.ts';
import type { UserRow } from './store/accounts.ts';

export interface PipelineDeps {
  routes: readonly Route[];
  services: Services;
  limiter: RateLimiter;
  faults: FaultInjector;
  adminSecret: string;
  /** aborted on close, so stalls and latency faults do not hold the server open */
  signal: AbortSignal;
  log: (line: string) => void;
  /** unexpected errors, with the incident id their 500 names; logged even when requests are not */
  logError: (line: string) => void;
}

const EMPTY: JsonBody = { kind: 'empty' };

/** The Host header names this machine's loopback (any port): the sandbox binds 127.0.0.1 only. */
function isLoopbackHost(host: string | undefined): boolean {
  const name = (host ?? '').replace(/:\d+$/, '').toLowerCase();
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

export function createPipeline(deps: PipelineDeps) {
  const incident = (where: string): IncidentLog => (id, error) => deps.logError(`${where} failed (incident ${id}): ${(error as Error)?.stack ?? String(error)}`);

  return async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const queryAt = target.indexOf('?');
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    const search = queryAt === -1 ? '' : target.slice(queryAt + 1);
    try {
      if (!isLoopbackHost(req.headers.host)) {
        // A page on another site that rebinds its name to 127.0.0.1 must not drive the sandbox.
        sendReply(res, failure(421, 'INCORRECT_PARAMETERS', 'The sandbox answers requests for 127.0.0.1 or localhost only'));
        return;
      }
      if (pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)) {
        sendReply(res, await handleAdmin(req, pathname, deps.adminSecret, deps.faults).catch((error: unknown) => errorReply(error, incident(`${method} ${pathname}`))));
        return;
      }
      const plan = deps.faults.plan(method, pathname);
      if (plan.delayBeforeMs) await sleep(plan.delayBeforeMs, undefined, { signal: deps.signal });
      if (plan.resetBefore) return void req.socket.destroy();
      const { reply, rate } = plan.status ? injected(plan) : await serve(req, method, pathname, search, plan);
      if (plan.delayAfterMs) await sleep(plan.delayAfterMs, undefined, { signal: deps.signal });
      if (plan.resetAfter) return void req.socket.destroy();
      sendReply(res, reply, rate?.headers);
      deps.log(`${method} ${pathname} ${reply.status} ${Date.now() - started}ms`);
    } catch (error) {
      // Only reached when the server is closing (aborted sleep) or the socket died mid-way.
      if (!deps.signal.aborted) sendReply(res, errorReply(error, incident(`${method} ${pathname}`)));
      else req.socket.destroy();
    }
  };

  async function serve(req: IncomingMessage, method: string, pathname: string, search: string, plan: FaultPlan) {
    const match = matchRoute(deps.routes, method, pathname);
    const clientIp = req.socket.remoteAddress ?? 'unknown';
    if (match.kind !== 'route') {
      const rate = deps.limiter.take('unmatched', `ip:${clientIp}`);
      if (!rate.allowed) return { reply: tooMany(rate), rate };
      const reply =
        match.kind === 'not-found'
          ? failure(404, 'NOT_FOUND', `No endpoint ${method} ${pathname}`)
          : failure(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${pathname}`, { Allow: match.allow.join(', ') });
      return { reply, rate };
    }
    const ctx = await prepare(req, match.route, search, clientIp, plan);
    const caller = match.route.rateKey?.(ctx) ?? (ctx.user ? `user:${ctx.user.user_id}` : `ip:${clientIp}`);
    const endpointRate = deps.limiter.take(endpointId(match.route), caller);
    const ipRate = match.route.ipRule ? deps.limiter.take(match.route.ipRule, `ip:${clientIp}`) : endpointRate;
    // The headers tell of the tighter of the two: a refusal, else the one with fewer requests left.
    const rate = !endpointRate.allowed ? endpointRate : !ipRate.allowed ? ipRate : remaining(ipRate) < remaining(endpointRate) ? ipRate : endpointRate;
    if (!rate.allowed) return { reply: tooMany(rate), rate };
    try {
      if (ctx.pending) throw ctx.pending;
      return { reply: await match.route.handle(ctx), rate };
    } catch (error) {
      return { reply: errorReply(error, incident(`${method} ${pathname}`)), rate };
    } finally {
      // A cut copy of the body that nobody read would hold the request paused forever; Node
      // discards an unread request body by itself only when nothing is piped from it.
      if (ctx.stream !== req && !ctx.stream.readableEnded) ctx.stream.resume();
    }
  }

  /** Authenticates and reads the body, keeping the first failure for after the rate limit check. */
  async function prepare(req: IncomingMessage, route: Route, search: string, clientIp: string, plan: FaultPlan) {
    let pending: unknown;
    const cutAt = plan.resetAfterBodyBytes;
    const stream = cutAt === undefined || route.body === 'none' ? req : cutBodyAfter(req, cutAt);
    let user: UserRow | null = null;
    let body = EMPTY;
    if (route.auth) {
      user = await deps.services.tokens.authenticate(req.headers.authorization).catch((error: unknown) => {
        pending = error;
        return null;
      });
    }
    if (route.body === 'json') {
      body = await readJsonBody(req, undefined, stream).catch((error: unknown) => {
        pending ??= error;
        return EMPTY;
      });
    }
    const ctx: RouteContext & { pending: unknown } = {
      req, query: new URLSearchParams(search), body, stream, user, clientIp, services: deps.services, pending,
    };
    return ctx;
  }
}

function remaining(rate: RateDecision): number {
  return Number(rate.headers['X-RateLimit-Remaining']);
}

function tooMany(rate: RateDecision): Reply {
  return failure(429, 'RATE_LIMITED', `Rate limit exceeded; retry in ${rate.retryAfterSeconds} s`, {
    'Retry-After': String(rate.retryAfterSeconds),
  });
}

function injected(plan: FaultPlan): { reply: Reply; rate?: RateDecision } {
  if (plan.status === 429) {
    const seconds = plan.retryAfterSeconds ?? 1;
    const rate: RateDecision = {
      allowed: false,
      retryAfterSeconds: seconds,
      headers: { 'X-RateLimit-Limit': '0', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(seconds) },
    };
    return { reply: tooMany(rate), rate };
  }
  const status = plan.status ?? 503;
  const reply = failure(status, 'INTERNAL_ERROR', `Injected fault: HTTP ${status}`);
  if (status === 503) reply.headers = { 'Retry-After': '1' };
  return { reply };
}
