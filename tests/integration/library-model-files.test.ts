// A model's bytes for its preview: the file it was uploaded from while that file is unchanged, else a
// copy downloaded from the service and checked against the model's SHA-256; nothing (not an error) from
// a service that has no download.
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { corpus, startWorld } from './library-helpers.ts';
import type { World } from './library-helpers.ts';
import { fetchBytes } from '../../electron/api/download.ts';
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
});
