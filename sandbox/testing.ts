// Helpers for tests that need a real sandbox: a fresh temp data dir per sandbox, removed on close.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Account } from './seed.ts';
import { startSandbox } from './server.ts';
import type { Sandbox, SandboxOptions } from './server.ts';

export interface TestSandbox extends Sandbox {
  dataDir: string;
  /** closes the sandbox and deletes its data dir */
  dispose(): Promise<void>;
}

export function makeTempDir(prefix = 'printdesk-sandbox-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const dataDir = options.dataDir ?? makeTempDir();
  const sandbox = await startSandbox({ quiet: true, ...options, dataDir });
  return {
    ...sandbox,
    dataDir,
    async dispose() {
      await sandbox.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Envelope<T = unknown> {
  success: boolean;
  data?: T;
  error?: { type: string; message: string };
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: Envelope<T>;
}

/** One request to the sandbox; the body is parsed as an envelope (tests assert its shape). */
export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  pathAndQuery: string,
  options: { token?: string; json?: unknown; headers?: Record<string, string>; rawBody?: string | Uint8Array } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${pathAndQuery}`, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as Envelope<T> };
}

/** Signs in; a sandbox's own accounts are `sandbox.demoAccount` and `sandbox.noProjectAccount`. */
export async function login(baseUrl: string, account: Account) {
  const response = await call<{ accessToken: string; refreshToken: string }>(baseUrl, 'POST', '/Auth/Login', { json: account });
  if (response.status !== 200 || !response.body.data) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}
