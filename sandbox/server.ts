// The embedded sandbox: a real HTTP implementation of the Model Printing Service on loopback.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDatabase } from './db/open.ts';
import { answerClientError } from './http.ts';
import { createFaultInjector } from './faults.ts';
import type { FaultControl } from './faults.ts';
import { createOperator } from './operator.ts';
import type { Operator } from './operator.ts';
import { createPasswordChecks, type PasswordCheckLimits } from './password-checks.ts';
import { createPipeline } from './pipeline.ts';
import { createRateLimiter } from './rate-limit.ts';
import type { RateLimitConfig } from './rate-limit.ts';
import { API_PREFIX, endpointId } from './router.ts';
import { ROUTES } from './routes/index.ts';
import { seedDemoAccounts, type Account, type DemoAccounts } from './seed.ts';
import { createTokenService } from './tokens.ts';
import { createUploadRuntime, sweepUploads } from './upload-files.ts';
import { writePrivateFile } from './private-files.ts';
import type { TokenService } from './tokens.ts';

export type { FaultControl, FaultKind, FaultSpec, ActiveFault } from './faults.ts';
export type { ModelRecord, Operator, OrderRecord, OrderStatus, ProjectRecord, UserRecord } from './operator.ts';
export type { RateLimitConfig, RateLimitRule } from './rate-limit.ts';
export { DEFAULT_RATE_LIMITS } from './rate-limit.ts';

export interface SandboxOptions {
  /** created if missing; SQLite db + jwt secret (+ later model files) live here */
  dataDir: string;
  /** default 0 = random free port; always binds 127.0.0.1 only */
  port?: number;
  /** default 3600 */
  accessTokenTtlSeconds?: number;
  /** default 43200 (12 h) */
  refreshTokenTtlSeconds?: number;
  /** per-endpoint limits keyed by endpoint id ("Auth/Login"); see DEFAULT_RATE_LIMITS */
  rateLimits?: Partial<RateLimitConfig>;
  /** how many password checks run at once, and how many may wait (past that, 429); see password-checks.ts */
  passwordChecks?: PasswordCheckLimits;
  /** endpoint ids ("Model3D/CreateUpload") to leave out, to play a service that lacks them */
  withoutEndpoints?: string[];
  /** for the loopback admin endpoint; random if absent */
  adminSecret?: string;
  /** no log of requests (unexpected errors are still logged) */
  quiet?: boolean;
  /** where unexpected errors go, with the incident id their 500 names; default: stderr */
  logError?: (line: string) => void;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:43123/v2 (no trailing slash) */
  baseUrl: string;
  port: number;
  adminSecret: string;
  /** same operations as the operator CLI, in-process */
  operator: Operator;
  /** set/clear fault injection in-process */
  faults: FaultControl;
  /** the seeded demo account (with the demo project) and its password, made for this data directory */
  demoAccount: Account;
  /** the seeded account without a project (same password) */
  noProjectAccount: Account;
  /** signs arbitrary claims with this sandbox's key: lets tests forge expired or mistyped tokens */
  tokens: Pick<TokenService, 'sign'>;
  /** false once it has stopped (closed), so a client can tell a stopped sandbox from one it cannot reach */
  running(): boolean;
  close(): Promise<void>;
}

/** Written while a sandbox runs so `operator faults …` can find it from the data dir alone. */
/** The extended timeout of uploads (docs/api-assumptions.md, section 8). */
export const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export const RUNTIME_FILE = 'sandbox-runtime.json';

export interface RuntimeInfo {
  baseUrl: string;
  adminUrl: string;
  adminSecret: string;
  pid: number;
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const dataDir = path.resolve(options.dataDir);
  const db = openDatabase(dataDir);
  let accounts: DemoAccounts;
  try {
    accounts = await seedDemoAccounts(db, dataDir);
    sweepUploads(db, dataDir);
  } catch (error) {
    db.close();
    throw error;
  }
  const tokens = createTokenService({
    db,
    dataDir,
    accessTtlSeconds: options.accessTokenTtlSeconds ?? 3600,
    refreshTtlSeconds: options.refreshTokenTtlSeconds ?? 43200,
  });
  const faults = createFaultInjector();
  const adminSecret = options.adminSecret ?? randomBytes(24).toString('base64url');
  const lifetime = new AbortController();
  const log = options.quiet ? () => {} : (line: string) => console.log(`[sandbox] ${line}`);
  const server = http.createServer(
    createPipeline({
      routes: ROUTES.filter((route) => !options.withoutEndpoints?.includes(endpointId(route))),
      services: { db, tokens, dataDir, uploads: createUploadRuntime(), passwordChecks: createPasswordChecks(options.passwordChecks) },
      limiter: createRateLimiter(options.rateLimits),
      faults,
      adminSecret,
      signal: lifetime.signal,
      log,
      logError: options.logError ?? ((line) => console.error(`[sandbox] ${line}`)),
    }),
  );
  server.on('clientError', answerClientError);
  // Node ends any request after 5 minutes by default; a large upload on a slow line needs longer.
  server.requestTimeout = UPLOAD_TIMEOUT_MS;
  const port = await listen(server, options.port ?? 0).catch((error: unknown) => {
    db.close();
    throw error;
  });
  const origin = `http://127.0.0.1:${port}`;
  const runtime: RuntimeInfo = { baseUrl: `${origin}${API_PREFIX}`, adminUrl: `${origin}/__admin`, adminSecret, pid: process.pid };
  const runtimeFile = path.join(dataDir, RUNTIME_FILE);
  writePrivateFile(runtimeFile, JSON.stringify(runtime, null, 2));

  let closing: Promise<void> | undefined;
  async function close(): Promise<void> {
    closing ??= (async () => {
      lifetime.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      removeRuntimeFile(runtimeFile, adminSecret);
      db.close();
    })();
    return closing;
  }

  return {
    baseUrl: runtime.baseUrl, port, adminSecret, demoAccount: accounts.demo, noProjectAccount: accounts.noProject,
    operator: createOperator(db, dataDir), faults, tokens, running: () => closing === undefined, close,
  };
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Only removes the file if it is still ours: another sandbox may have started on the same dir. */
function removeRuntimeFile(file: string, adminSecret: string): void {
  try {
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as RuntimeInfo;
    if (info.adminSecret === adminSecret && info.pid === process.pid) fs.rmSync(file);
  } catch {
    // already gone or unreadable: nothing to clean up
  }
}

export function readRuntimeInfo(dataDir: string): RuntimeInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.resolve(dataDir), RUNTIME_FILE), 'utf8')) as RuntimeInfo;
  } catch {
    return undefined;
  }
}
