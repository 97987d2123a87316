// A file that changes while it is sent without a declared hash (the service checks nothing then): the
// upload is refused and the model the service made from the mixed bytes is removed, whether the change
// shows in the hashes (bytes rewritten in place under a resume, size and time kept) or in the file's
// modification time (saved again while its last chunk was on its way).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { it } from 'node:test';
import { binaryStl, perTest, quickSleep, scratch, settle, startWorld } from './library-helpers.ts';
import type { World } from './library-helpers.ts';

const CHUNK = 256 * 1024;
/** 1,000,084 bytes: four chunks, and more than one, so the file is hashed on the way rather than first. */
const FACETS = 20_000;

const held = perTest();

async function uploadFailing(w: World, file: string) {
  const { added } = await w.library.uploads.enqueue({ projectId: w.projectId, paths: [file] });
  const item = (await settle(w.library)).find((i) => i.id === added[0].id)!;
  assert.equal(item.state, 'failed');
  assert.equal(item.error?.code, 'FILE_INVALID');
  return item;
}

it('bytes rewritten in place under a resume (same size and time) are caught by the hashes, and the model goes', async () => {
  const files = (held.files = scratch());
  const file = files.file('rewritten.stl', binaryStl(FACETS, 7));
  // A whole second, so that putting the time back is exact (a Date would round it off by a fraction).
  const addedAt = 1_700_000_000;
  fs.utimesSync(file, addedAt, addedAt);
  let rewritten = false;
  // The reset's backoff is the moment between the cut-off send and the catch-up read from disk.
  const sleep = (ms: number, signal: AbortSignal) => {
    if (!rewritten) {
      rewritten = true;
      const handle = fs.openSync(file, 'r+');
      fs.writeSync(handle, Buffer.from('rewritten'), 0, 9, 1000);
      fs.closeSync(handle);
      fs.utimesSync(file, addedAt, addedAt);
    }
    return quickSleep(ms, signal);
  };
  const world = (held.world = await startWorld({ uploads: { chunkBytes: CHUNK, sleep } }));
  world.sandbox.faults.set({ kind: 'reset-mid-body', path: '/Model3D/AppendUpload', afterBytes: 100_000, count: 1 });
  const item = await uploadFailing(world, file);
  assert.ok(rewritten, 'the file was rewritten during the backoff');
  assert.match(item.error!.message, /changed while it was sent \(the service got SHA-256 [0-9a-f]{64}, the file has [0-9a-f]{64}\); the copy the service received was removed/);
  assert.deepEqual(await world.sandbox.operator.listModels(world.projectId), []);
});

it('a file saved again while its last chunk is on its way is caught by its time, and the model goes', async () => {
  const files = (held.files = scratch());
  const file = files.file('saved-again.stl', binaryStl(FACETS, 8));
  const world = (held.world = await startWorld({ uploads: { chunkBytes: CHUNK } }));
  world.sandbox.faults.set({ kind: 'latency', path: '/Model3D/AppendUpload', ms: 800 });
  const lastChunkStart = Math.floor(fs.statSync(file).size / CHUNK) * CHUNK;
  const failed = uploadFailing(world, file);
  // The last chunk leaves once the one before it is recorded; touch the file while it is in flight.
  while (!world.events.some((e) => e.type === 'upload:changed' && e.item.bytesSent === lastChunkStart)) await delay(5);
  await delay(200);
  fs.utimesSync(file, new Date(), new Date(Date.now() + 60_000));
  const item = await failed;
  assert.match(item.error!.message, /changed while it was sent \(it was saved again during the upload\); the copy the service received was removed/);
  assert.deepEqual(await world.sandbox.operator.listModels(world.projectId), []);
});
