// The queue under failure, against the sandbox's fault injection: a connection reset mid-body
// resumes from the service's offset (re-sending at most one chunk), 429 and 5xx are retried with
// backoff, an access token that expires mid-queue is renewed, and a host restart mid-queue loses
// nothing and sends nothing twice, checked against the sandbox's own upload records.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { afterEach, describe, it } from 'node:test';
import type { TokenSource } from '../../electron/services/api/client.ts';
import { createLibrary } from '../../electron/services/library/index.ts';
import { accountKey } from '../../electron/services/session/session.ts';
import { binaryStl, corpus, quickSleep, scratch, settle, startWorld } from './library-helpers.ts';
import type { World } from './library-helpers.ts';

const CHUNK = 256 * 1024;
const REAR = corpus('stl', 'rear_case-binary.stl'); // 940,484 bytes: four chunks
const BUNNY = corpus('obj', 'stanford-bunny.obj'); // 2.4 MB: ten chunks

let world: World | undefined;
afterEach(async () => {
  await world?.dispose();
  world = undefined;
});

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** Whether the item went through a hash pass before sending, rather than hashing on the way. */
function hashedFirst(w: World, id: string): boolean {
  return w.events.some((e) => e.type === 'upload:changed' && e.item.id === id && e.item.state === 'hashing');
}

async function uploadOne(w: World, file: string) {
  const { added } = await w.library.uploads.enqueue({ projectId: w.projectId, paths: [file] });
  assert.equal(added.length, 1);
  const item = (await settle(w.library)).find((i) => i.id === added[0].id)!;
  assert.equal(item.state, 'done', JSON.stringify(item.error));
  return item;
}

/** Bytes the sandbox took in for a file beyond its size, over all its sessions. */
async function serverResent(w: World, fileName: string, size: number): Promise<number> {
  const sessions = (await w.sandbox.operator.listUploads()).filter((u) => u.fileName === fileName);
  return sessions.reduce((sum, u) => sum + u.bytesReceived, 0) - size;
}

describe('interrupted connections', () => {
  it('resumes from the service offset after a reset mid-body, re-sending at most one chunk', async () => {
    world = await startWorld({ uploads: { chunkBytes: CHUNK } });
    world.sandbox.faults.set({ kind: 'reset-mid-body', path: '/Model3D/AppendUpload', afterBytes: 100_000, count: 1 });
    const item = await uploadOne(world, REAR);
    assert.equal(world.sandbox.faults.list().length, 0, 'the reset happened');
    const sessions = await world.sandbox.operator.listUploads();
    assert.equal(sessions.length, 1, 'one session, resumed');
    // What the client put on the wire beyond the file, and what the service took in twice.
    const wire = item.bytesTransferred - item.sizeBytes;
    assert.ok(wire > 0 && wire <= CHUNK, `client re-sent ${wire} bytes`);
    assert.ok((await serverResent(world, item.fileName, item.sizeBytes)) <= CHUNK);
    assert.ok(item.attempts === 0 && item.error === null);
    // Hashed on the way: the bytes the reset cut off were hashed, then caught up from disk.
    assert.equal(hashedFirst(world, item.id), false);
    assert.equal(item.sha256, sha(REAR));
    const [model] = await world.sandbox.operator.listModels(world.projectId);
    assert.equal(model.sha256, item.sha256);
  });

  it('retries a reset before the service read anything', async () => {
    world = await startWorld({ uploads: { chunkBytes: CHUNK } });
    world.sandbox.faults.set({ kind: 'reset-before', path: '/Model3D/AppendUpload', count: 2 });
    await uploadOne(world, REAR);
  });

  it('retries 429 (honouring Retry-After) and 5xx bursts', async () => {
    world = await startWorld({ uploads: { chunkBytes: CHUNK } });
    world.sandbox.faults.set([
      { kind: 'rate-limit', path: '/Model3D/AppendUpload', retryAfterSeconds: 2, count: 2 },
      { kind: 'status-5xx', path: '/Model3D/', status: 502, count: 3 },
    ]);
    const started = Date.now();
    const item = await uploadOne(world, REAR);
    // quickSleep cuts waits to a tenth: two Retry-After: 2 still cost at least 2 × 200 ms.
    assert.ok(Date.now() - started >= 400, 'waited as told');
    const errors = world.events.filter((e) => e.type === 'upload:changed' && e.item.id === item.id && e.item.error);
    assert.ok(errors.some((e) => e.type === 'upload:changed' && e.item.error?.code === 'RATE_LIMITED'));
    assert.equal(item.error, null);
  });

  it('falls back to whole-file uploads when the service has no resume endpoints', async () => {
    world = await startWorld({ sandbox: { withoutEndpoints: ['Model3D/CreateUpload'] }, uploads: { chunkBytes: CHUNK } });
    world.sandbox.faults.set({ kind: 'reset-mid-body', path: '/Model3D/UploadModel', afterBytes: 300_000, count: 1 });
    await uploadOne(world, REAR);
    const sessions = await world.sandbox.operator.listUploads();
    assert.deepEqual(sessions.map((s) => [s.kind, s.state]), [['whole', 'complete']]);
  });
});

describe('sessions and restarts', () => {
  it('renews an access token that expires mid-queue and carries on', async () => {
    // 2 s: a 1 s token issued late in its second can expire before the request it was renewed for.
    world = await startWorld({ sandbox: { accessTokenTtlSeconds: 2 }, uploads: { chunkBytes: CHUNK, concurrency: 1 } });
    // A token source that never renews ahead of time, so the service's 401 is what drives renewal.
    const { session } = world;
    let current = await session.tokens.accessToken();
    let rejected = 0;
    const lazy: TokenSource = {
      accessToken: async () => current,
      renewAfterRejection: async (token) => {
        rejected++;
        current = await session.tokens.renewAfterRejection(token);
        return current;
      },
    };
    const library = createLibrary({ client: () => world!.api, account: () => accountKey(session.state(), world!.api.serviceKey), tokens: lazy, db: world.db, onEvent: () => {}, uploads: { chunkBytes: CHUNK, sleep: quickSleep } });
    // The first append leaves with a live token and is held past its end: the service's 401 is certain.
    world.sandbox.faults.set({ kind: 'latency', path: '/Model3D/AppendUpload', ms: 2_100, count: 1 });
    const files = scratch();
    try {
      const paths = [1, 2, 3].map((n) => files.file(`part-${n}.stl`, binaryStl(12_000, n)));
      await library.uploads.enqueue({ projectId: world.projectId, paths });
      const items = await settle(library);
      assert.deepEqual(items.map((i) => i.state), ['done', 'done', 'done']);
      assert.ok(rejected >= 1, 'at least one 401 was met and renewed');
      assert.equal((await world.sandbox.operator.listModels(world.projectId)).length, 3);
    } finally {
      await library.close();
      files.remove();
    }
  });

  it('survives a host restart mid-queue: nothing lost, nothing sent twice', async () => {
    world = await startWorld({ uploads: { chunkBytes: CHUNK, concurrency: 2 } });
    world.sandbox.faults.set({ kind: 'latency', path: '/Model3D/AppendUpload', ms: 150 });
    const paths = [REAR, BUNNY, corpus('obj', 'spot.obj')];
    await world.library.uploads.enqueue({ projectId: world.projectId, paths });
    // Wait until the service holds part of a file, then stop the host as a quit would.
    for (let i = 0; i < 100 && !world.library.uploads.list().some((u) => u.state === 'uploading' && u.bytesSent > 0); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await world.library.close();
    const stopped = world.library.uploads.list();
    assert.ok(stopped.some((u) => u.state !== 'done'), 'the restart happened mid-queue');
    world.sandbox.faults.clear();

    const resumed = stopped.filter((u) => u.state !== 'done' && u.bytesSent > 0 && u.sha256 === null);
    assert.ok(resumed.length > 0, 'a file hashed on the way was cut off: its hash so far is lost');
    const again = world.reopen();
    again.start();
    const items = await settle(again);
    assert.deepEqual(items.map((i) => i.state), ['done', 'done', 'done']);
    const models = await world.sandbox.operator.listModels(world.projectId);
    assert.equal(models.length, 3);
    const uploads = await world.sandbox.operator.listUploads();
    for (const item of items) {
      const sessions = uploads.filter((u) => u.fileName === item.fileName);
      assert.equal(sessions.length, 1, `${item.fileName}: one session, resumed after the restart`);
      assert.ok(sessions[0].bytesReceived - item.sizeBytes <= CHUNK, `${item.fileName}: the service took in ${sessions[0].bytesReceived - item.sizeBytes} bytes twice`);
      assert.ok(item.bytesTransferred - item.sizeBytes <= CHUNK, `${item.fileName}: the client re-sent ${item.bytesTransferred - item.sizeBytes} bytes`);
      assert.equal(item.sha256, sha(item.path));
      assert.equal(models.find((m) => m.modelId === item.modelId)?.sha256, item.sha256);
    }
    for (const { id } of resumed) assert.equal(hashedFirst(world, id), false, 'resumed without a hash pass');
    await again.close();
  });
});

describe('pause, resume, cancel, retry', () => {
  it('pauses and resumes an upload, and cancels and retries another', async () => {
    world = await startWorld({ uploads: { chunkBytes: CHUNK, concurrency: 2 } });
    world.sandbox.faults.set({ kind: 'latency', path: '/Model3D/AppendUpload', ms: 100 });
    const { added } = await world.library.uploads.enqueue({ projectId: world.projectId, paths: [REAR, BUNNY] });
    const [rear, bunny] = added;
    assert.equal(world.library.uploads.pause(rear.id).state, 'paused');
    assert.equal(world.library.uploads.cancel(bunny.id).state, 'cancelled');
    await world.library.uploads.idle();
    assert.equal(world.library.uploads.get(rear.id)!.state, 'paused');
    assert.equal((await world.sandbox.operator.listModels(world.projectId)).length, 0);

    world.library.uploads.resume(rear.id);
    assert.equal((await world.library.uploads.retry(bunny.id)).state, 'queued');
    const items = await settle(world.library);
    assert.deepEqual(items.map((i) => i.state), ['done', 'done']);
    assert.equal((await world.sandbox.operator.listModels(world.projectId)).length, 2);
    assert.deepEqual(world.library.uploads.clearFinished().length, 2);
    assert.equal(world.library.uploads.list().length, 0);
  });
});
