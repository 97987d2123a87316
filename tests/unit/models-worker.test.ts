// The worker protocol and the pool, in plain Node: a fake Worker runs the real handleRequest in-process
// (asynchronously, like a worker) so ids, progress, transfers, errors-as-data and cancellation are exercised.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isModelParseError, parseModel, type ModelArrays, type ParsedModel } from '../../common/models/index.ts';
import { binaryStl, torus } from '../../scripts/generate-models.ts';
import { createModelClient, type WorkerLike } from '../../renderer/viewer/worker-client.ts';
import { handleRequest, type WorkerReply, type WorkerRequest } from '../../renderer/viewer/worker-protocol.ts';
import { inflatePartsNatively } from '../../renderer/viewer/inflate-parts.ts';
import { CORPUS } from '../corpus.ts';


function fakeWorkers() {
  const made: { terminated: boolean; transfers: Transferable[][] }[] = [];
  const create = (): WorkerLike => {
    const record = { terminated: false, transfers: [] as Transferable[][] };
    made.push(record);
    const worker: WorkerLike = {
      onmessage: null,
      onerror: null,
      postMessage(message: WorkerRequest, transfer: Transferable[]) {
        record.transfers.push(transfer);
        // Like postMessage: the transferred buffers move (and are detached on this side).
        const received = structuredClone(message, { transfer });
        setTimeout(() => {
          if (record.terminated) return;
          void handleRequest(received, (reply, back) => {
            if (!record.terminated) worker.onmessage?.({ data: structuredClone(reply, { transfer: back }) } as MessageEvent<WorkerReply>);
          });
        }, 5);
      },
      terminate() {
        record.terminated = true;
      },
    };
    return worker;
  };
  return { made, create };
}

function bytesOf(path: string): ArrayBuffer {
  const data = readFileSync(path);
  return data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
}

test('handleRequest replies with the model and lists its buffers for transfer; errors come back as data', async () => {
  const replies: { reply: WorkerReply; transfer?: Transferable[] }[] = [];
  await handleRequest({ type: 'parse', id: 7, bytes: bytesOf(join(CORPUS, '3mf/pyramid_vertexcolor.3mf')), name: 'p.3mf' }, (reply, transfer) => replies.push({ reply, transfer }));
  const last = replies.at(-1);
  assert.equal(last?.reply.type, 'result');
  assert.equal(last?.reply.id, 7);
  assert.equal(last?.transfer?.length, 2, 'positions and colours');
  replies.length = 0;
  await handleRequest({ type: 'parse', id: 8, bytes: new ArrayBuffer(0), name: 'e.stl' }, (reply) => replies.push({ reply }));
  assert.deepEqual(replies[0].reply, { type: 'error', id: 8, error: { code: 'EMPTY', message: 'e.stl is empty (0 bytes): save or export it again from the program that made it.', where: {} } });
});

test('the pool parses in parallel up to its size, reports progress, and rebuilds ModelParseErrors', async () => {
  const workers = fakeWorkers();
  const client = createModelClient({ size: 2, createWorker: workers.create });
  const big = binaryStl(torus(400, 400));
  const progress: number[] = [];
  const results = await Promise.all([
    client.parse(big.buffer as ArrayBuffer, 'big.stl', { onProgress: (f) => progress.push(f) }),
    client.parse(bytesOf(join(CORPUS, 'stl/Cube-binary.stl')), 'cube.stl'),
    client.parse(bytesOf(join(CORPUS, 'obj/suzanne.obj')), 'suzanne.obj', { boundaryEdges: true }),
  ]);
  assert.equal(big.buffer.byteLength, 0, 'the caller’s buffer was handed over, not copied');
  assert.equal(workers.made.length, 2);
  assert.deepEqual(results.map((m) => m.facts.triangles), [320_000, 12, 968]);
  assert.ok(results[2].boundaryEdges && results[2].boundaryEdges.length > 0);
  assert.equal(progress.at(-1), 1);
  await assert.rejects(client.parse(new TextEncoder().encode('v 0 0 0\nf 1 2 3\n').buffer as ArrayBuffer, 'bad.obj'), (error) => isModelParseError(error) && error.code === 'INDEX_OUT_OF_RANGE');
  client.dispose();
  assert.ok(workers.made.every((w) => w.terminated));
});

test('cancelling a parse terminates its worker; the next parse gets a fresh one', async () => {
  const workers = fakeWorkers();
  const client = createModelClient({ size: 1, createWorker: workers.create });
  const controller = new AbortController();
  const pending = client.parse(bytesOf(join(CORPUS, 'stl/Cube-binary.stl')), 'cube.stl', { signal: controller.signal });
  controller.abort();
  await assert.rejects(pending, (error) => isModelParseError(error) && error.code === 'CANCELLED');
  const model = await client.parse(bytesOf(join(CORPUS, 'stl/Star-binary.stl')), 'star.stl');
  assert.equal(model.facts.triangles, 68);
  assert.equal(workers.made.length, 2);
  assert.ok(workers.made[0].terminated);
  client.dispose();
});

test('with onMesh the model arrives measured before its topology, and the result completes it', async () => {
  const workers = fakeWorkers();
  const client = createModelClient({ size: 1, createWorker: workers.create });
  const open = binaryStl({ ...torus(40, 20), triangles: torus(40, 20).triangles.slice(0, -6) });
  const early: { topology: string; watertight: boolean; triangles: number; positions: number }[] = [];
  const model = await client.parse(open.buffer as ArrayBuffer, 'open.stl', {
    boundaryEdges: true,
    onMesh: (first) => early.push({ topology: first.facts.topology, watertight: first.facts.watertight, triangles: first.facts.triangles, positions: first.positions.length }),
  });
  assert.deepEqual(early, [{ topology: 'pending', watertight: false, triangles: 1598, positions: 1598 * 9 }]);
  assert.equal(model.facts.topology, 'checked');
  assert.equal(model.facts.openEdges, 4);
  assert.equal(model.positions.length, 1598 * 9, 'the early positions are the final ones');
  assert.ok(model.boundaryEdges && model.boundaryEdges.length === 4 * 6);
  // An indexed format's early model carries copies of its vertex table and indices, which the topology
  // pass goes on reading; the final model has the same.
  const objPath = join(CORPUS, 'obj/suzanne.obj');
  let earlyObj: ParsedModel | undefined;
  const suzanne = await client.parse(bytesOf(objPath), 'suzanne.obj', { boundaryEdges: true, onMesh: (first) => (earlyObj = first) });
  const direct = parseModel(new Uint8Array(readFileSync(objPath)), 'suzanne.obj', { boundaryEdges: true });
  assert.equal(earlyObj?.positions.length, direct.positions.length);
  assert.deepEqual(earlyObj?.indices, direct.indices);
  assert.ok(direct.indices && direct.indices.length === direct.facts.triangles * 3);
  assert.deepEqual(suzanne.facts, direct.facts);
  assert.deepEqual(suzanne.boundaryEdges, direct.boundaryEdges);
  const thumbnail = await client.parse(bytesOf(join(CORPUS, 'stl/Cube-binary.stl')), 'cube.stl', { skipTopology: true });
  assert.equal(thumbnail.facts.topology, 'skipped');
  client.dispose();
});

test('3MF parts are inflated natively when the platform can (DecompressionStream), with the same result', async () => {
  const bytes = readFileSync(join(CORPUS, '3mf/cube_gears.3mf'));
  const inflateRaw = await inflatePartsNatively(bytes);
  assert.ok(inflateRaw, 'Node has DecompressionStream, like the browser');
  const root = inflateRaw(new Uint8Array(0), 0, '3D/3dmodel.model');
  assert.equal(root?.length, 2_049_245);
  assert.deepEqual(parseModel(bytes, 'g.3mf', { inflateRaw }).facts, parseModel(bytes, 'g.3mf').facts);
  // A part whose header understates its size is not inflated here: the parser's own inflater refuses it.
  const lying = new Uint8Array(bytes);
  const view = new DataView(lying.buffer, lying.byteOffset);
  for (let at = lying.length - 22; at > 0; at--) if (view.getUint32(at, true) === 0x02014b50 && view.getUint32(at + 24, true) === 2_049_245) view.setUint32(at + 24, 4096, true);
  const cautious = await inflatePartsNatively(lying);
  assert.equal(cautious?.(new Uint8Array(0), 0, '3D/3dmodel.model'), undefined);
  assert.throws(() => parseModel(lying, 'g.3mf', { inflateRaw: cautious }), (error: unknown) => isModelParseError(error) && error.code === 'ZIP_BOMB');
});

test('a large model comes with its proxy; a picture-only parse sends back just the proxy, with the whole model\'s facts', async () => {
  const workers = fakeWorkers();
  const client = createModelClient({ size: 1, createWorker: workers.create });
  const ring = binaryStl(torus(200, 100));
  let early: ParsedModel | undefined;
  const shown = await client.parse(ring.slice().buffer as ArrayBuffer, 'ring.stl', { proxy: 5_000, onMesh: (first) => (early = first) });
  assert.ok(early?.proxy, 'the early model carries the proxy, so the first frame need not draw every triangle');
  assert.equal(shown.proxy?.triangles, early.proxy.triangles);
  assert.equal(shown.positions.length, 40_000 * 9);
  assert.ok(shown.proxy.triangles <= 10_000);

  const picture = await client.parse(ring.slice().buffer as ArrayBuffer, 'ring.stl', { skipTopology: true, proxy: 5_000, pictureOnly: true });
  assert.equal(picture.facts.triangles, 40_000);
  assert.equal(picture.positions.length, shown.proxy.triangles * 9, 'only the proxy crossed over');
  assert.equal(picture.proxy, undefined);
  // A small model is its own picture.
  const cube = await client.parse(bytesOf(join(CORPUS, 'stl/Cube-binary.stl')), 'cube.stl', { skipTopology: true, proxy: 5_000, pictureOnly: true });
  assert.equal(cube.positions.length, 12 * 9);
  client.dispose();
});

test('a large model is sent as its proxy first; its arrays follow once the weld is done, handed over without a copy', async () => {
  const workers = fakeWorkers();
  const client = createModelClient({ size: 1, createWorker: workers.create });
  const ring = binaryStl(torus(200, 100));
  const heard: string[] = [];
  let early: ParsedModel | undefined;
  let arrays: ModelArrays | undefined;
  const model = await client.parse(ring.slice().buffer as ArrayBuffer, 'ring.stl', {
    proxy: 5_000,
    boundaryEdges: true,
    onMesh: (first, arraysFollow) => {
      heard.push(`mesh ${arraysFollow}`);
      early = first;
    },
    onArrays: (every) => {
      heard.push('arrays');
      arrays = every;
    },
  });
  assert.deepEqual(heard, ['mesh true', 'arrays']);
  assert.equal(early?.positions.length, 0, 'the picture waits for no copy of every triangle');
  assert.ok(early.proxy && early.proxy.triangles <= 10_000);
  assert.equal(early.facts.topology, 'pending');
  assert.equal(arrays?.positions.length, 40_000 * 9);
  // A binary STL's positions are gathered in the file's own buffer: that buffer crossed over, not a copy.
  assert.equal(arrays.positions.buffer.byteLength, ring.byteLength);
  assert.equal(model.positions.length, 40_000 * 9);
  assert.equal(model.facts.topology, 'checked');
  assert.equal(model.facts.watertight, true);

  // A vertex table is read by the topology pass to its end: its arrays follow at once, as copies.
  const suzanne = parseModel(new Uint8Array(readFileSync(join(CORPUS, 'obj/suzanne.obj'))), 'suzanne.obj', { skipTopology: true });
  const tableArrays: ModelArrays[] = [];
  let tableEarly: ParsedModel | undefined;
  const table = await client.parse(bytesOf(join(CORPUS, 'obj/suzanne.obj')), 'suzanne.obj', { proxy: 100, onMesh: (first) => (tableEarly = first), onArrays: (every) => tableArrays.push(every) });
  assert.ok(tableEarly?.proxy);
  assert.equal(tableArrays.length, 1);
  assert.deepEqual(tableArrays[0].indices, suzanne.indices);
  assert.deepEqual(tableArrays[0].positions, suzanne.positions);
  assert.deepEqual(table.facts, parseModel(new Uint8Array(readFileSync(join(CORPUS, 'obj/suzanne.obj'))), 'suzanne.obj').facts);
  client.dispose();
});
