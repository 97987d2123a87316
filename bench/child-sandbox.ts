// The sandbox in a process of its own, as a real service would be: the benches that time orders against it
// keep its work off the processes they measure. It says how many orders it holds, and under how many
// references, when asked.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DEMO_EMAIL } from '../sandbox/seed.ts';
import type { RateLimitConfig } from '../sandbox/rate-limit.ts';
import { corpusFile } from '../tests/corpus.ts';

const SANDBOX_SCRIPT = `
const { startSandbox } = await import('./sandbox/server.ts');
const [dataDir, rateLimits, model] = process.argv.slice(1);
const sandbox = await startSandbox({ dataDir, quiet: true, rateLimits: JSON.parse(rateLimits) });
const projectId = (await sandbox.operator.listProjects())[0].projectId;
await sandbox.operator.addModel(projectId, model);
console.log(JSON.stringify({ baseUrl: sandbox.baseUrl, projectId, password: sandbox.demoAccount.password }));
for await (const line of (await import('node:readline')).createInterface({ input: process.stdin })) {
  const orders = await sandbox.operator.listOrders({ projectId });
  console.log(JSON.stringify({ orders: orders.length, references: new Set(orders.map((o) => o.orderReference)).size }));
}
await sandbox.close();
`;

export interface ChildSandbox {
  baseUrl: string;
  projectId: string;
  demoAccount: { email: string; password: string };
  /** The orders the sandbox holds, and under how many references. */
  count(): Promise<{ orders: number; references: number }>;
  close(): Promise<void>;
}

/** A sandbox with `rateLimits` over its own (DEFAULT_RATE_LIMITS), data in `dataDir`, Cube-binary.stl in its project. */
export async function startChildSandbox(dataDir: string, rateLimits: Partial<RateLimitConfig> = {}): Promise<ChildSandbox> {
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', SANDBOX_SCRIPT, dataDir, JSON.stringify(rateLimits), corpusFile('stl', 'Cube-binary.stl')], {
    cwd: join(import.meta.dirname, '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
  const { baseUrl, projectId, password } = (await next()) as { baseUrl: string; projectId: string; password: string };
  return {
    baseUrl,
    projectId,
    demoAccount: { email: DEMO_EMAIL, password },
    count: async () => {
      child.stdin!.write('count\n');
      return (await next()) as { orders: number; references: number };
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.stdin!.end();
      }),
  };
}
