// batch:import reads a path the renderer names: only a CSV, TSV or text file, never a key or a config.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Batches } from '../../electron/services/batch/index.ts';
import { batchHandlers } from '../../electron/services/handlers/batch.ts';
import { PathGrants } from '../../electron/services/path-grants.ts';

test('batch import and re-import refuse files that are not CSV, TSV or text, before reading them', async () => {
  const read: string[] = [];
  const batches = { import: (input: { fileName: string }) => read.push(input.fileName), reimport: (_id: string, _bytes: Uint8Array, name: string) => read.push(name) } as unknown as Batches;
  // Even handed over themselves, only batch files are read.
  const paths = ['/etc/passwd', '/home/me/.ssh/id_ed25519', '/home/me/.config/PrintDesk/sandbox/sandbox-runtime.json', '/proc/self/environ'];
  const grants = new PathGrants();
  grants.grant([...paths, '/nonexistent/orders.CSV']);
  const handlers = batchHandlers(batches, grants);
  const projectId = '00000000-0000-4000-8000-000000000000';
  for (const path of paths) {
    await assert.rejects(Promise.resolve(handlers['batch:import']({ projectId, path })), /is not a CSV, TSV or text file/);
    await assert.rejects(Promise.resolve(handlers['batch:reimport']({ batchId: 'b', path })), /is not a CSV, TSV or text file/);
  }
  await assert.rejects(Promise.resolve(handlers['batch:import']({ projectId, path: '/nonexistent/orders.CSV' })), /cannot be read/);
  assert.deepEqual(read, []);
});

test('batch import reads only a file the user handed over, and says so the same way whether it exists or not', async () => {
  const read: string[] = [];
  const batches = { import: (input: { fileName: string }) => read.push(input.fileName) } as unknown as Batches;
  const grants = new PathGrants();
  const handlers = batchHandlers(batches, grants);
  const projectId = '00000000-0000-4000-8000-000000000000';
  for (const path of [import.meta.filename.replace(/\.ts$/, '.csv'), '/nonexistent/orders.csv']) {
    await assert.rejects(Promise.resolve(handlers['batch:import']({ projectId, path })), /PrintDesk was not given [\w.-]+\.csv: choose it/);
  }
  assert.deepEqual(read, []);
});

test('a folder handed over for its models hands over no order list in it', async () => {
  const batches = { import: () => assert.fail('read') } as unknown as Batches;
  const grants = new PathGrants();
  grants.grant(['/home/me']);
  const handlers = batchHandlers(batches, grants);
  await assert.rejects(Promise.resolve(handlers['batch:import']({ projectId: '00000000-0000-4000-8000-000000000000', path: '/home/me/notes/secrets.txt' })), /was not given secrets\.txt/);
});
