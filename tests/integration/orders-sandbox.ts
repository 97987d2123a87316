// A sandbox for order tests: rate limits out of the way, one model in the first project, and a client signed
// in as the demo account (its retries without waiting).
import { join } from 'node:path';
import { startTestSandbox } from '../../sandbox/testing.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { signedInClient } from '../signed-in.ts';

export async function sandboxWithModel(timeoutMs: number) {
  const sandbox = await startTestSandbox({ rateLimits: { default: { limit: 1_000_000, windowSeconds: 60 } } });
  const projectId = (await sandbox.operator.listProjects())[0].projectId;
  const modelId = (await sandbox.operator.addModel(projectId, join(corpus, 'stl', 'Cube-binary.stl'))).modelId;
  const { client } = await signedInClient(sandbox, { timeoutMs, sleep: async () => undefined });
  return { sandbox, projectId, modelId, client };
}
