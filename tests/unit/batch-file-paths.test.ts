// batch:import reads a path the renderer names: only a CSV, TSV or text file, never a key or a config.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Batches } from '../../electron/batch/index.ts';
import { batchHandlers } from '../../electron/handlers/batch.ts';

test('batch import and re-import refuse files that are not CSV, TSV or text, before reading them', async () => {
  const read: string[] = [];
  const batches = { import: (input: { fileName: string }) => read.push(input.fileName), reimport: (_id: string, _bytes: Uint8Array, name: string) => read.push(name) } as unknown as Batches;
  const handlers = batchHandlers(batches);
  const projectId = '00000000-0000-4000-8000-000000000000';
  for (const path of ['/etc/passwd', '/home/me/.ssh/id_ed25519', '/home/me/.config/PrintDesk/sandbox/sandbox-runtime.json', '/proc/self/environ']) {
    await assert.rejects(Promise.resolve(handlers['batch:import']({ projectId, path })), /is not a CSV, TSV or text file/);
    await assert.rejects(Promise.resolve(handlers['batch:reimport']({ batchId: 'b', path })), /is not a CSV, TSV or text file/);
  }
  await assert.rejects(Promise.resolve(handlers['batch:import']({ projectId, path: '/nonexistent/orders.CSV' })), /cannot be read/);
  assert.deepEqual(read, []);
});
