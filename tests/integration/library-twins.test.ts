// Copies in one queue that runs several files at once: a copy whose twin is still on its way waits for
// it rather than claim a model that does not exist yet, is done without a byte sent once the twin is,
// and is sent itself when the twin does not arrive (cancelled). Checked against the sandbox's records.
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { it } from 'node:test';
import { binaryStl, perTest, scratch, settle, startWorld } from './library-helpers.ts';
import type { World } from './library-helpers.ts';

const CHUNK = 256 * 1024;
const FACETS = 20_000; // 1,000,084 bytes: four chunks

const held = perTest();

async function until(w: World, id: string, state: string): Promise<void> {
  for (let i = 0; i < 1000 && w.library.uploads.get(id)!.state !== state; i++) await delay(5);
  assert.equal(w.library.uploads.get(id)!.state, state);
}

it('a copy added while its twin is sent without a hash waits for it and sends nothing', async () => {
  const files = (held.files = scratch());
  const bytes = binaryStl(FACETS, 201);
  const world = (held.world = await startWorld({ uploads: { chunkBytes: CHUNK, concurrency: 3 } }));
  world.sandbox.faults.set({ kind: 'latency', path: '/Model3D/AppendUpload', ms: 150 });
  const first = (await world.library.uploads.enqueue({ projectId: world.projectId, paths: [files.file('a/part.stl', bytes)] })).added[0];
  await until(world, first.id, 'uploading');
  const copy = (await world.library.uploads.enqueue({ projectId: world.projectId, paths: [files.file('b/part.stl', bytes)] })).added[0];
  const items = await settle(world.library);
  const [one, two] = [first, copy].map((a) => items.find((i) => i.id === a.id)!);
  assert.ok(!world.events.some((e) => e.type === 'upload:changed' && e.item.id === one.id && e.item.state === 'hashing'), 'the first was hashed on the way, not first');
  assert.deepEqual([two.state, two.duplicate, two.modelId, two.bytesTransferred], ['done', true, one.modelId, 0]);
  assert.ok(one.modelId);
  assert.equal((await world.sandbox.operator.listUploads()).length, 1, 'one session');
  assert.equal((await world.sandbox.operator.listModels(world.projectId)).length, 1);
});

it('a copy whose twin is cancelled on its way is sent itself, and ends with a model', async () => {
  const files = (held.files = scratch());
  const bytes = binaryStl(FACETS, 202);
  const world = (held.world = await startWorld({ uploads: { chunkBytes: CHUNK, concurrency: 3 } }));
  world.sandbox.faults.set({ kind: 'latency', path: '/Model3D/AppendUpload', ms: 150 });
  // One drop: both are hashed first, and the second finds the first by its hash while it is on its way.
  const [first, copy] = (await world.library.uploads.enqueue({ projectId: world.projectId, paths: [files.file('a/part.stl', bytes), files.file('b/part.stl', bytes)] })).added;
  await until(world, first.id, 'uploading');
  await delay(100);
  assert.notEqual(world.library.uploads.get(copy.id)!.state, 'done', 'the copy does not claim a model that is not there yet');
  world.library.uploads.cancel(first.id);
  const items = await settle(world.library);
  const two = items.find((i) => i.id === copy.id)!;
  assert.equal(items.find((i) => i.id === first.id)!.state, 'cancelled');
  assert.deepEqual([two.state, two.duplicate], ['done', false]);
  const models = await world.sandbox.operator.listModels(world.projectId);
  assert.deepEqual(models.map((m) => m.modelId), [two.modelId]);
});
