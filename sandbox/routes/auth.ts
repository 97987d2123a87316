// POST /Auth/Login and POST /Auth/RefreshToken (spec sections 4 and 5).
import { ApiError, ok, requireObject } from '../http.ts';
import { unknownUserHash, verifyPassword } from '../passwords.ts';
import type { Route, RouteContext } from '../router.ts';
import { findUserByEmail } from '../store/accounts.ts';
import { requireString } from '../validate.ts';

export const LOGIN_FAILED = 'The username or password is incorrect';

export const login: Route = {
  method: 'POST',
  path: '/Auth/Login',
  auth: false,
  body: 'json',
  rateKey: (ctx) => `${ctx.clientIp}|${emailOf(ctx)}`,
  ipRule: 'Auth/Login:ip',
  async handle(ctx) {
    const body = requireObject(ctx.body);
    const email = requireString(body.email, 'Email');
    const password = requireString(body.password, 'Password');
    const user = findUserByEmail(ctx.services.db, email);
    const stored = user?.password_hash ?? (await unknownUserHash());
    const valid = await ctx.services.passwordChecks.run(() => verifyPassword(password, stored));
    // Spec section 7: wrong credentials are a 400, not a 401, and do not say which part was wrong.
    if (!user || !valid) throw new ApiError(400, 'AUTHENTICATION', LOGIN_FAILED);
    return ok(await ctx.services.tokens.issuePair(user));
  },
};

export const refreshToken: Route = {
  method: 'POST',
  path: '/Auth/RefreshToken',
  // The access token has usually expired by the time a client refreshes, so none is required.
  auth: false,
  body: 'json',
  async handle(ctx) {
    const body = requireObject(ctx.body);
    const token = requireString(body.refreshToken, 'Refresh token');
    return ok(await ctx.services.tokens.rotate(token));
  },
};

function emailOf(ctx: RouteContext): string {
  if (ctx.body.kind !== 'json') return '';
  const value = ctx.body.value as { email?: unknown } | null;
  return typeof value?.email === 'string' ? value.email.trim().toLowerCase() : '';
}
