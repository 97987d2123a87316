// The sandbox the batch tests order against: no rate limit in the way, the demo project with the
// models a file names, and a folder for databases, files and reports.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RateLimitConfig } from '../../sandbox/rate-limit.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { CORPUS as corpus } from '../corpus.ts';

export interface BatchSandbox {
  sandbox: TestSandbox;
  projectId: string;
  dir: string;
}

/** `rateLimits`: rules beside the unlimited default (sign-ins, say, which keep their own limit otherwise). */
export async function startBatchSandbox(prefix: string, models: readonly string[] = ['Cube-binary.stl'], rateLimits: Partial<RateLimitConfig> = {}): Promise<BatchSandbox> {
  const sandbox = await startTestSandbox({ rateLimits: { default: { limit: 1_000_000, windowSeconds: 60 }, ...rateLimits } });
  const projectId = (await sandbox.operator.listProjects())[0].projectId;
  for (const model of models) await sandbox.operator.addModel(projectId, join(corpus, 'stl', model));
  return { sandbox, projectId, dir: mkdtempSync(join(tmpdir(), prefix)) };
}

export async function stopBatchSandbox({ sandbox, dir }: BatchSandbox): Promise<void> {
  await sandbox.dispose();
  rmSync(dir, { recursive: true, force: true });
}
