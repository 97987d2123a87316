// Real signed JWTs (HS256). The signing secret is generated once per data directory and kept
// there, so tokens issued before a restart stay valid after it, as they would on a real service.
// Refresh tokens are also recorded by jti, which is what makes rotation and revocation possible.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, errors, jwtVerify } from 'jose';
import type { Db } from './db/open.ts';
import { ApiError } from './http.ts';
import { findUserById } from './store/accounts.ts';
import { PRIVATE_FILE } from './private-files.ts';
import type { UserRow } from './store/accounts.ts';
import { nowSeconds } from './validate.ts';

export const SECRET_FILE = 'jwt-secret';
const ISSUER = 'printdesk-sandbox';
const REFRESH_INVALID = 'Refresh token is invalid or expired';
const VERIFIED_CACHE_SIZE = 10_000;

type TokenKind = 'access' | 'refresh';

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

export interface TokenService {
  issuePair(user: Pick<UserRow, 'user_id' | 'email'>, replacing?: string): Promise<TokenPair>;
  /** The user behind an `Authorization` header value, or a 401 saying what is wrong with it. */
  authenticate(header: string | undefined): Promise<UserRow>;
  /** Verifies and revokes a refresh token, then issues a new pair (rotation). */
  rotate(refreshToken: string): Promise<TokenPair>;
  /** Signs arbitrary claims with the sandbox key; tests use it to forge expired or mistyped tokens. */
  sign(claims: Record<string, unknown>): Promise<string>;
}

export interface TokenOptions {
  db: Db;
  dataDir: string;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
}

export function loadSecret(dataDir: string): Uint8Array {
  const file = path.join(dataDir, SECRET_FILE);
  try {
    fs.writeFileSync(file, randomBytes(32).toString('base64'), { ...PRIVATE_FILE, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 bytes`);
  return new Uint8Array(secret);
}

export function createTokenService(options: TokenOptions): TokenService {
  const { db } = options;
  const key = loadSecret(options.dataDir);
  const verified = new Map<string, { sub: string; exp: number }>();

  async function sign(claims: Record<string, unknown>): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuer(ISSUER).sign(key);
  }

  async function signToken(user: Pick<UserRow, 'user_id' | 'email'>, typ: TokenKind, ttl: number, jti: string, iat: number) {
    return sign({ sub: user.user_id, email: user.email, typ, jti, iat, exp: iat + ttl });
  }

  /** Signs a new pair and records its refresh jti; `replacing` is revoked in the same transaction. */
  async function issuePair(user: Pick<UserRow, 'user_id' | 'email'>, replacing?: string): Promise<TokenPair> {
    const iat = nowSeconds();
    const refreshJti = randomUUID();
    const [accessToken, refreshToken] = await Promise.all([
      signToken(user, 'access', options.accessTtlSeconds, randomUUID(), iat),
      signToken(user, 'refresh', options.refreshTtlSeconds, refreshJti, iat),
    ]);
    db.transaction(() => {
      // The conditional UPDATE is the single point of truth: of two concurrent uses, one wins.
      if (replacing !== undefined) {
        const revoked = db
          .prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE jti = ? AND revoked_at IS NULL AND expires_at > ?')
          .run(iat, replacing, iat);
        if (revoked.changes === 0) throw unauthorized(REFRESH_INVALID);
      }
      // Housekeeping on the write path keeps the table bounded without a timer.
      db.prepare('DELETE FROM refresh_tokens WHERE expires_at < ?').run(iat - 86400);
      db.prepare('INSERT INTO refresh_tokens (jti, user_id, issued_at, expires_at) VALUES (?, ?, ?, ?)').run(
        refreshJti, user.user_id, iat, iat + options.refreshTtlSeconds,
      );
    })();
    return { accessToken, refreshToken };
  }

  async function verify(token: string, typ: TokenKind): Promise<{ sub: string; jti: string }> {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER, requiredClaims: ['sub', 'jti', 'exp'] });
    if (payload.typ !== typ) throw new errors.JWTClaimValidationFailed(`not a ${typ} token`, payload, 'typ', 'check_failed');
    return { sub: String(payload.sub), jti: String(payload.jti) };
  }

  async function authenticate(header: string | undefined): Promise<UserRow> {
    if (!header) throw unauthorized('Authorization header is missing');
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('Authorization header must have the form "Bearer <access token>"');
    const token = match[1];
    let claims = verified.get(token);
    if (!claims || claims.exp <= nowSeconds()) {
      verified.delete(token);
      try {
        claims = { ...(await verify(token, 'access')), exp: 0 };
        claims.exp = expiryOf(token);
      } catch (error) {
        throw unauthorized(accessFailure(error));
      }
      // A bounded memo of tokens already verified: checking the signature is most of the cost
      // of an authenticated request. The account is still looked up every time.
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
      verified.set(token, claims);
    }
    const user = findUserById(db, claims.sub);
    if (!user) throw unauthorized('The account of this access token no longer exists');
    return user;
  }

  async function rotate(refreshToken: string): Promise<TokenPair> {
    let claims: { sub: string; jti: string };
    try {
      claims = await verify(refreshToken, 'refresh');
    } catch {
      throw unauthorized(REFRESH_INVALID);
    }
    const user = findUserById(db, claims.sub);
    if (!user) throw unauthorized(REFRESH_INVALID);
    return issuePair(user, claims.jti);
  }

  return { issuePair, authenticate, rotate, sign };
}

/** exp of a token whose signature has just been verified. */
function expiryOf(token: string): number {
  return Number(decodeJwt(token).exp);
}

function accessFailure(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'Access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed && error.claim === 'typ') return 'Token is not an access token';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'Access token signature is invalid';
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return 'Access token is malformed';
  return 'Access token is invalid';
}

export function unauthorized(message: string): ApiError {
  return new ApiError(401, 'AUTHENTICATION', message);
}
