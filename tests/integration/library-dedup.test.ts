// Hashing first only when a duplicate is plausible: a large file of a size neither the queue nor
// the project holds goes at once and is hashed on the way; one whose size matches is hashed first,
// so bytes the project already has are not sent; and a duplicate nobody could foresee is still
// recognised by the service, never stored twice.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { binaryStl, scratch, settle, startWorld } from './library-helpers.ts';
import type { World } from './library-helpers.ts';

const CHUNK = 256 * 1024;
const FACETS = 20_000; // 1,000,084 bytes: four chunks

let world: World;
let files: ReturnType<typeof scratch>;
// One file at a time, so which of two copies goes first is known.
before(async () => {
  world = await startWorld({ uploads: { chunkBytes: CHUNK, concurrency: 1 } });
  files = scratch();
});
after(async () => {
  await world.dispose();
  files.remove();
});

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function upload(paths: string[], allowDuplicate = false) {
  const { added } = await world.library.uploads.enqueue({ projectId: world.projectId, paths, allowDuplicate });
  assert.equal(added.length, paths.length);
  const items = await settle(world.library);
  return added.map((a) => items.find((i) => i.id === a.id)!);
}

function hashedFirst(id: string): boolean {
  return world.events.some((e) => e.type === 'upload:changed' && e.item.id === id && e.item.state === 'hashing');
}

const sessionCount = async () => (await world.sandbox.operator.listUploads()).length;
const modelCount = async () => (await world.sandbox.operator.listModels(world.projectId)).length;

describe('a large file of a size nobody has', () => {
  it('is sent at once, hashed on the way, and ends with the right SHA-256', async () => {
    const bytes = binaryStl(FACETS, 101);
    const [item] = await upload([files.file('new.stl', bytes)]);
    assert.equal(item.state, 'done', JSON.stringify(item.error));
    assert.equal(hashedFirst(item.id), false, 'no hash pass before sending');
    assert.equal(item.sha256, sha(bytes));
    assert.equal(item.bytesTransferred, bytes.length, 'each byte sent once');
    assert.equal(item.duplicate, false);
    const model = (await world.sandbox.operator.listModels(world.projectId)).find((m) => m.modelId === item.modelId);
    assert.equal(model?.sha256, item.sha256);
  });

  it('goes without a hash pass when duplicates are allowed, even beside one of its size', async () => {
    const bytes = binaryStl(FACETS, 101);
    const [item] = await upload([files.file('again.stl', bytes)], true);
    assert.equal(hashedFirst(item.id), false);
    assert.equal(item.sha256, sha(bytes));
    assert.equal(item.duplicate, false, 'a second model, as asked');
  });
});

describe('a file whose size is already there', () => {
  it('is recognised as a copy of a file this queue sent without a byte of it being sent', async () => {
    const bytes = binaryStl(FACETS, 102);
    const [first] = await upload([files.file('first.stl', bytes)]);
    const [models, sessions] = [await modelCount(), await sessionCount()];
    const [copy] = await upload([files.file('copy.stl', bytes)]);
    assert.ok(hashedFirst(copy.id));
    assert.deepEqual([copy.state, copy.duplicate, copy.modelId, copy.sha256], ['done', true, first.modelId, first.sha256]);
    assert.equal(copy.bytesTransferred, 0);
    assert.deepEqual([await modelCount(), await sessionCount()], [models, sessions]);
  });

  it('hashes both copies of one drop first, so the second is not sent', async () => {
    const bytes = binaryStl(FACETS, 103);
    const sessions = await sessionCount();
    const [one, two] = await upload([files.file('drop/one.stl', bytes), files.file('drop/two.stl', bytes)]);
    assert.ok(hashedFirst(one.id) && hashedFirst(two.id));
    assert.deepEqual([one.duplicate, two.duplicate, two.modelId], [false, true, one.modelId]);
    assert.deepEqual([two.bytesTransferred, await sessionCount()], [0, sessions + 1]);
  });

  it('is recognised when the project got the same bytes from elsewhere: no session, no bytes', async () => {
    const bytes = binaryStl(FACETS, 104);
    const theirs = await world.sandbox.operator.addModel(world.projectId, files.file('theirs.stl', bytes));
    const [models, sessions] = [await modelCount(), await sessionCount()];
    const [ours] = await upload([files.file('ours.stl', bytes)]);
    assert.ok(hashedFirst(ours.id));
    assert.deepEqual([ours.state, ours.duplicate, ours.modelId, ours.sha256], ['done', true, theirs.modelId, sha(bytes)]);
    assert.equal(ours.bytesTransferred, 0);
    assert.deepEqual([await modelCount(), await sessionCount()], [models, sessions]);
  });
});

describe('a duplicate that could not be foreseen', () => {
  it('is still recognised by the service when the bytes arrive, and stored once', async () => {
    // The project is listed when the first file starts; the same bytes as the second arrive
    // from elsewhere while the first is on its way, so the listing the queue holds misses them.
    world.sandbox.faults.set({ kind: 'latency', path: '/Model3D/AppendUpload', ms: 150 });
    try {
      const bytes = binaryStl(FACETS + 1, 105);
      const paths = [files.file('late/first.stl', binaryStl(FACETS + 2, 106)), files.file('late/ours.stl', bytes)];
      const { added } = await world.library.uploads.enqueue({ projectId: world.projectId, paths });
      for (let i = 0; i < 200 && world.library.uploads.get(added[0].id)!.state !== 'uploading'; i++) await delay(10);
      const theirs = await world.sandbox.operator.addModel(world.projectId, files.file('late/theirs.stl', bytes));
      const models = await modelCount();
      await settle(world.library);
      const ours = world.library.uploads.get(added[1].id)!;
      assert.equal(hashedFirst(ours.id), false, 'the listing missed it');
      assert.deepEqual([ours.state, ours.duplicate, ours.modelId, ours.sha256], ['done', true, theirs.modelId, sha(bytes)]);
      assert.equal(await modelCount(), models + 1, 'only the first file made a model');
    } finally {
      world.sandbox.faults.clear();
    }
  });
});

describe('a file changed while it is sent', () => {
  it('is not completed from a mix of old and new bytes', async () => {
    world.sandbox.faults.set({ kind: 'latency', path: '/Model3D/AppendUpload', ms: 150 });
    try {
      const file = files.file('changing.stl', binaryStl(FACETS + 3, 107));
      const { added } = await world.library.uploads.enqueue({ projectId: world.projectId, paths: [file] });
      for (let i = 0; i < 200 && world.library.uploads.get(added[0].id)!.bytesSent === 0; i++) await delay(10);
      const models = await modelCount();
      // Saved again with other content of the same size, as an editor would.
      fs.writeFileSync(file, binaryStl(FACETS + 3, 108));
      fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
      const [item] = (await settle(world.library)).filter((i) => i.id === added[0].id);
      assert.equal(hashedFirst(item.id), false, 'no declared hash for the service to check');
      assert.equal(item.state, 'failed');
      assert.equal(item.error?.code, 'FILE_INVALID');
      assert.match(item.error.message, /changed/);
      assert.equal(await modelCount(), models);
    } finally {
      world.sandbox.faults.clear();
    }
  });
});
