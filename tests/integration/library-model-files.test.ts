// A model's bytes for its preview: the file it was uploaded from while that file is unchanged, else a
// copy downloaded from the service and checked against the model's SHA-256; nothing (not an error) from
// a service that has no download.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { corpus, startWorld } from './library-helpers.ts';
import type { World } from './library-helpers.ts';
import { fetchBytes } from '../../electron/services/api/download.ts';
import { createModelCache } from '../../electron/services/library/model-cache.ts';
import { createModelFiles } from '../../electron/services/library/model-files.ts';
import { rejection } from '../host-error.ts';

let world: World;
before(async () => {
  world = await startWorld();
});
after(() => world.dispose());

describe('model files for previews', () => {
  it('downloads a model added elsewhere, byte for byte', async () => {
    const file = corpus('obj/suzanne.obj');
    const added = await world.sandbox.operator.addModel(world.projectId, file);
    const got = await world.library.modelFile(added.modelId);
    assert.ok(got);
    assert.equal(got.source, 'service');
    assert.equal(got.name, 'suzanne.obj');
    assert.equal(createHash('sha256').update(got.bytes).digest('hex'), createHash('sha256').update(fs.readFileSync(file)).digest('hex'));
  });

  it('uses the uploaded file while it is unchanged, and the service copy once it changed', async () => {
    const dir = fs.mkdtempSync('/tmp/printdesk-files-');
    const path = `${dir}/cube.stl`;
    fs.copyFileSync(corpus('stl/Cube-binary.stl'), path);
    await world.library.uploads.enqueue({ projectId: world.projectId, paths: [path] });
    await world.library.uploads.idle();
    const modelId = world.library.uploads.list().find((u) => u.path === path)?.modelId;
    assert.ok(modelId);
    assert.equal((await world.library.modelFile(modelId))?.source, 'local');
    fs.appendFileSync(path, 'changed');
    const again = await world.library.modelFile(modelId);
    assert.equal(again?.source, 'service');
    assert.deepEqual(again?.bytes, new Uint8Array(fs.readFileSync(corpus('stl/Cube-binary.stl'))));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('does not take a file changed in place at the same size for the model it was', async () => {
    const dir = fs.mkdtempSync('/tmp/printdesk-files-');
    const path = `${dir}/moved.stl`;
    // A file no earlier test uploaded, so the upload makes a model of its own.
    const original = fs.readFileSync(corpus('stl/Star-binary.stl'));
    fs.writeFileSync(path, original);
    await world.library.uploads.enqueue({ projectId: world.projectId, paths: [path] });
    await world.library.uploads.idle();
    const modelId = world.library.uploads.list().find((u) => u.path === path)?.modelId;
    assert.ok(modelId);
    // The star moved along x: its corners change, the file's size does not.
    const moved = Buffer.from(original);
    for (let facet = 0; facet < original.readUInt32LE(80); facet++) for (let corner = 0; corner < 3; corner++) {
      const at = 84 + facet * 50 + 12 + corner * 12;
      moved.writeFloatLE(moved.readFloatLE(at) + 5, at);
    }
    fs.writeFileSync(path, moved);
    const got = await world.library.modelFile(modelId);
    assert.equal(got?.source, 'service');
    assert.deepEqual(got?.bytes, new Uint8Array(original));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives nothing when the service has no download, and an error for an unknown model', async () => {
    const added = await world.sandbox.operator.addModel(world.projectId, corpus('stl/Moon-binary.stl'));
    const bare = await startWorld({ sandbox: { withoutEndpoints: ['Model3D/DownloadModel'] } });
    try {
      const there = await bare.sandbox.operator.addModel(bare.projectId, corpus('stl/Moon-binary.stl'));
      assert.equal(await bare.library.modelFile(there.modelId), null);
    } finally {
      await bare.dispose();
    }
    assert.ok(await world.library.modelFile(added.modelId));
    const error = await rejection(world.library.modelFile(randomUUID()));
    assert.equal(error.status, 404);
    assert.match(error.message, /does not exist/);
  });

  it('refuses a file over the caller\'s limit before reading it', async () => {
    const added = await world.sandbox.operator.addModel(world.projectId, corpus('stl/Moon-binary.stl'));
    const token = await world.session.tokens.accessToken();
    const url = `${world.sandbox.baseUrl}/Model3D/DownloadModel?modelId=${added.modelId}`;
    const error = await rejection(fetchBytes({ url, headers: { authorization: `Bearer ${token}` }, timeoutMs: 5000 }, 100));
    assert.equal(error.code, 'FILE_INVALID');
    const whole = await fetchBytes({ url, headers: { authorization: `Bearer ${token}` }, timeoutMs: 5000 }, 10_000_000);
    assert.equal(whole.bytes?.length, fs.statSync(corpus('stl/Moon-binary.stl')).size);
  });

  it('keeps downloads on disk by hash: a second preview needs no download, and the oldest go past the cap', async () => {
    const dir = fs.mkdtempSync('/tmp/printdesk-cache-');
    const cache = createModelCache(dir, 400_000);
    const modelFile = createModelFiles({ client: () => world.api, uploads: () => [], model: world.library.models.get, cache });
    const added = await world.sandbox.operator.addModel(world.projectId, corpus('obj/suzanne.obj'));
    assert.equal((await modelFile(added.modelId))?.source, 'service');
    world.sandbox.faults.set({ kind: 'status-5xx', path: '/Model3D/DownloadModel' });
    try {
      const again = await modelFile(added.modelId);
      assert.equal(again?.bytes.length, fs.statSync(corpus('obj/suzanne.obj')).size, 'from the cache, though downloads fail now');
    } finally {
      world.sandbox.faults.clear();
    }
    // suzanne (49 KB), cow (180 KB) and spot (331 KB) do not fit 400 KB together: the oldest go first.
    const cow = await world.sandbox.operator.addModel(world.projectId, corpus('obj/cow.obj'));
    const spot = await world.sandbox.operator.addModel(world.projectId, corpus('obj/spot.obj'));
    await modelFile(cow.modelId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await modelFile(spot.modelId);
    const kept = fs.readdirSync(dir);
    assert.deepEqual(kept, [spot.sha256], 'the newest is kept, the older ones made room');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says a model is too large to preview, for a local file and for the service\'s copy alike', async () => {
    const added = await world.sandbox.operator.addModel(world.projectId, corpus('obj/suzanne.obj'));
    const small = createModelFiles({ client: () => world.api, uploads: () => world.library.uploads.list(), model: world.library.models.get, limitBytes: 1000 });
    const fromService = await rejection(small(added.modelId));
    assert.equal(fromService.code, 'FILE_INVALID');
    assert.match(fromService.message, /suzanne.obj is 48 KB; a preview reads models up to 1000 B/);
    const dir = fs.mkdtempSync('/tmp/printdesk-large-');
    const path = `${dir}/moon.stl`;
    fs.copyFileSync(corpus('stl/Moon-ascii.stl'), path);
    await world.library.uploads.enqueue({ projectId: world.projectId, paths: [path] });
    await world.library.uploads.idle();
    const uploaded = world.library.uploads.list().find((u) => u.path === path);
    assert.ok(uploaded?.modelId);
    const fromDisk = await rejection(small(uploaded.modelId));
    assert.equal(fromDisk.code, 'FILE_INVALID');
    assert.match(fromDisk.message, /moon.stl is 21 KB; a preview reads models up to 1000 B/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
