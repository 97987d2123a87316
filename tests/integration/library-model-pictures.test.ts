// A large model's first picture, sent ahead of its file: read in the host's worker thread, the same proxy
// and measures the preview's own reading makes, kept by content hash; none for a small model or a file
// this computer does not have (a picture never costs a download of its own).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { corpus, scratch, startWorld, type World } from './library-helpers.ts';
import { parseModel, PREVIEW_PROXY_TRIANGLES, simplify } from '../../common/models/index.ts';
import { createLibrary } from '../../electron/services/library/index.ts';
import { createModelCache } from '../../electron/services/library/model-cache.ts';
import { accountKey } from '../../electron/services/session/session.ts';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { createModelPictures, dropUnpackedPictures, PICTURE_FROM_BYTES } from '../../electron/services/library/model-pictures.ts';
import { createPictureReader } from '../../electron/services/models/model-picture.ts';
import { unpackTriangles } from '../../common/models/packed-triangles.ts';
import { binaryStl, torusWith } from '../../scripts/generate-models.ts';

let world: World;
let files: ReturnType<typeof scratch>;
let largeId: string;
let largeBytes: Uint8Array;
const reader = createPictureReader();

before(async () => {
  world = await startWorld();
  files = scratch();
  largeBytes = binaryStl(torusWith(400_000));
  assert.ok(largeBytes.byteLength > PICTURE_FROM_BYTES);
  const path = files.file('torus.stl', largeBytes);
  await world.library.uploads.enqueue({ projectId: world.projectId, paths: [path] });
  await world.library.uploads.idle();
  largeId = world.library.uploads.list().find((upload) => upload.path === path)?.modelId as string;
  assert.ok(largeId);
});
after(async () => {
  await reader.close();
  files.remove();
  await world.dispose();
});

/** The pictures, with every reading of a file counted. */
function pictures(cacheDir?: string) {
  const reads: string[] = [];
  const { picture: modelPicture, prepare } = createModelPictures({
    model: world.library.models.get,
    modelFile: (modelId, options) => {
      reads.push(modelId);
      return world.library.modelFile(modelId, options);
    },
    reader,
    cache: cacheDir ? createModelCache(cacheDir, 64 * 1024 * 1024) : undefined,
  });
  return { modelPicture, prepare, reads };
}

describe('first pictures of large models', () => {
  it("is the preview's own proxy and measures, with the topology still to come", async () => {
    const { modelPicture } = pictures();
    const picture = await modelPicture(largeId);
    assert.ok(picture);
    const own = parseModel(largeBytes.slice(), 'torus.stl', { skipTopology: true });
    const proxy = simplify(own, PREVIEW_PROXY_TRIANGLES);
    assert.ok(proxy);
    assert.equal(picture.format, 'stl-binary');
    assert.equal(picture.facts.triangles, own.facts.triangles);
    assert.deepEqual(picture.facts.size, own.facts.size);
    assert.equal(picture.facts.topology, 'pending');
    // Packed (packed-triangles.ts): the same triangles, each corner within half a step of its axis.
    assert.equal(picture.triangles, proxy.triangles);
    const back = unpackTriangles(picture);
    const halfStep = Math.max(...[0, 1, 2].map((axis) => (picture.box[axis + 3] - picture.box[axis]) / 65535 / 2));
    assert.ok(back.every((value, i) => Math.abs(value - proxy.positions[i]) <= halfStep + 1e-6), 'every corner where the proxy has it');
    assert.ok(picture.points.byteLength + picture.corners.byteLength < proxy.positions.byteLength / 3, 'in under a third of its floats');
    assert.ok(proxy.triangles <= PREVIEW_PROXY_TRIANGLES * 2 && proxy.triangles < own.facts.triangles / 2);
  });

  it('is kept by content hash: opening the model again reads no file', async () => {
    const dir = join(files.dir, 'pictures');
    const first = pictures(dir);
    const made = await first.modelPicture(largeId);
    assert.deepEqual(first.reads, [largeId]);
    const again = pictures(dir);
    const kept = await again.modelPicture(largeId);
    assert.deepEqual(again.reads, [], 'the kept picture, not the file');
    assert.deepEqual(kept, made);
    // A kept picture that was cut short is read again from the file, not sent broken.
    const [name] = fs.readdirSync(dir);
    fs.truncateSync(join(dir, name), 1000);
    const mended = pictures(dir);
    assert.deepEqual(await mended.modelPicture(largeId), made);
    assert.deepEqual(mended.reads, [largeId]);
  });

  it('is prepared once a large model is uploaded: an opening meanwhile waits for that reading, and later ones read nothing', async () => {
    const dir = join(files.dir, 'prepared');
    const { modelPicture, prepare, reads } = pictures(dir);
    prepare(largeId, largeBytes.byteLength);
    const opened = await modelPicture(largeId);
    assert.ok(opened);
    assert.deepEqual(reads, [largeId], 'one reading, shared');
    assert.deepEqual(await modelPicture(largeId), opened);
    assert.deepEqual(reads, [largeId]);
  });

  it("costs the service no request of its own: opening a model asks for its record once, and a model listed before not for the picture", async () => {
    const asked: string[] = [];
    const counted = Object.assign(Object.create(world.api) as ApiClient, {
      call: ((route, ...rest) => {
        asked.push(route);
        return world.api.call(route, ...rest);
      }) as ApiClient['call'],
    });
    const library = createLibrary({
      client: () => counted, account: () => accountKey(world.session.state(), world.api.serviceKey), tokens: world.session.tokens, db: world.db, onEvent: () => undefined, modelCacheDir: join(files.dir, 'opening'),
    });
    // As ModelDetail opens a model: its record, its file and its picture asked for at once.
    const [model, file, picture] = await Promise.all([library.models.get(largeId), library.modelFile(largeId), library.modelPicture(largeId)]);
    assert.equal(model.modelId, largeId);
    assert.ok(file && picture);
    assert.deepEqual(asked.filter((route) => route === 'getModelData'), ['getModelData'], 'one request for the record, shared');
    // Opened again: the picture is named by the record seen, and asks nothing more.
    asked.length = 0;
    assert.deepEqual(await library.modelPicture(largeId), picture);
    assert.deepEqual(asked, []);
  });

  it('is none for a model small enough to open whole, without reading its file', async () => {
    const path = files.file('cube.stl', fs.readFileSync(corpus('stl/Cube-binary.stl')));
    await world.library.uploads.enqueue({ projectId: world.projectId, paths: [path] });
    await world.library.uploads.idle();
    const modelId = world.library.uploads.list().find((upload) => upload.path === path)?.modelId as string;
    const { modelPicture, reads } = pictures();
    assert.equal(await modelPicture(modelId), null);
    assert.deepEqual(reads, []);
  });

  it('is none for a model whose file is not on this computer: the preview downloads it once, for itself', async () => {
    const elsewhere = await world.sandbox.operator.addModel(world.projectId, join(files.dir, 'torus.stl'));
    // A download tried would fail, and the picture with it: a plain none says none was tried.
    world.sandbox.faults.set({ kind: 'status-5xx', path: '/Model3D/DownloadModel' });
    try {
      assert.equal(await world.library.modelPicture(elsewhere.modelId), null);
    } finally {
      world.sandbox.faults.clear();
    }
  });

  it('are kept packed: the folder of pictures kept before, which nothing reads now, is removed', async () => {
    const cacheDir = join(files.dir, 'cache-of-an-older-version');
    const older = join(cacheDir, `pictures-${PREVIEW_PROXY_TRIANGLES}`);
    fs.mkdirSync(older, { recursive: true });
    fs.writeFileSync(join(older, 'a-picture'), new Uint8Array(16));
    await dropUnpackedPictures(cacheDir);
    assert.equal(fs.existsSync(older), false);
    await dropUnpackedPictures(cacheDir);
  });
});
