// Conformance of the routes the spec leaves "not shown" (docs/api-assumptions.md): folders,
// model listing and deletion, order listing, lookup by reference, status updates and
// cancellation, with the envelope and a 4xx for every kind of bad input.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ModelRecord, OrderRecord } from '../../sandbox/server.ts';
import { call, login, startTestSandbox } from '../../sandbox/testing.ts';
import type { ApiResponse, TestSandbox } from '../../sandbox/testing.ts';
import { CORPUS } from '../corpus.ts';

interface Folder { folderId: string; parentFolderId: string | null; name: string; modelCount: number }
interface ModelPage { models: ModelRecord[]; page: number; pageSize: number; total: number }

let sandbox: TestSandbox;
let url: string;
let token: string;
let otherToken: string;
let projectId: string;
const models: ModelRecord[] = [];
before(async () => {
  sandbox = await startTestSandbox();
  url = sandbox.baseUrl;
  token = (await login(url, sandbox.demoAccount)).accessToken;
  otherToken = (await login(url, sandbox.noProjectAccount)).accessToken;
  projectId = (await sandbox.operator.listProjects())[0].projectId;
  for (const file of ['Cube-binary.stl', 'Moon-binary.stl', 'Star-ascii.stl']) {
    models.push(await sandbox.operator.addModel(projectId, path.join(CORPUS, 'stl', file)));
  }
});
after(() => sandbox.dispose());

const api = <T = unknown>(method: string, target: string, json?: unknown, t = token) => call<T>(url, method, target, { token: t, json });

function failed(response: ApiResponse, status: number, message?: RegExp) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.success, false);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  if (message) assert.match(response.body.error!.message, message);
}

describe('folders', () => {
  it('creates nested folders and lists them flat with parent ids', async () => {
    const top = (await api<Folder>('POST', '/Folder/CreateFolder', { projectId, name: ' Prints ' })).body.data!;
    assert.equal(top.name, 'Prints');
    const child = (await api<Folder>('POST', '/Folder/CreateFolder', { projectId, name: '日本語 🧩', parentFolderId: top.folderId })).body.data!;
    const list = (await api<{ folders: Folder[] }>('GET', `/Folder/GetFolders?projectId=${projectId}`)).body.data!.folders;
    assert.deepEqual(list.map((f) => [f.name, f.parentFolderId]), [['Prints', null], ['日本語 🧩', top.folderId]]);
    assert.equal((await api<Folder>('PUT', '/Folder/RenameFolder', { folderId: child.folderId, name: 'Renamed' })).body.data!.name, 'Renamed');
    failed(await api('PUT', '/Folder/MoveFolder', { folderId: top.folderId, parentFolderId: child.folderId }), 400, /into itself/);
    failed(await api('DELETE', `/Folder/DeleteFolder?folderId=${top.folderId}`), 409, /not empty: it holds 1 folder\. Move or delete it first/);
    assert.equal((await api('DELETE', `/Folder/DeleteFolder?folderId=${child.folderId}`)).status, 200);
    failed(await api('DELETE', `/Folder/DeleteFolder?folderId=${child.folderId}`), 404);
  });

  it('caps nesting at 8 levels and keeps sibling names unique', async () => {
    let parent: string | null = null;
    for (let level = 1; level <= 8; level++) {
      const made: ApiResponse<Folder> = await api<Folder>('POST', '/Folder/CreateFolder', { projectId, name: `L${level}`, parentFolderId: parent });
      parent = made.body.data!.folderId;
    }
    failed(await api('POST', '/Folder/CreateFolder', { projectId, name: 'L9', parentFolderId: parent }), 400, /8 levels/);
    failed(await api('POST', '/Folder/CreateFolder', { projectId, name: 'l1' }), 409, /already exists/);
  });

  it('validates every field and checks project access', async () => {
    failed(await api('POST', '/Folder/CreateFolder', {}), 400, /projectId is not set/);
    failed(await api('POST', '/Folder/CreateFolder', { projectId }), 400, /name is not set/);
    for (const name of ['', '   ', 'a\u0000b', 'x'.repeat(101), 42]) failed(await api('POST', '/Folder/CreateFolder', { projectId, name }), 400);
    failed(await api('POST', '/Folder/CreateFolder', { projectId, name: 'x', parentFolderId: crypto.randomUUID() }), 400, /does not exist/);
    failed(await api('GET', '/Folder/GetFolders?projectId=nope'), 400);
    failed(await api('GET', `/Folder/GetFolders?projectId=${projectId}`, undefined, otherToken), 403);
    failed(await api('PUT', '/Folder/RenameFolder', { folderId: crypto.randomUUID(), name: 'x' }), 404);
  });
});

describe('models', () => {
  it('lists a project page by page, sorted, searched and per folder', async () => {
    const page = (q: string) => api<ModelPage>('GET', `/Model3D/GetModels?projectId=${projectId}&${q}`);
    const first = (await page('pageSize=2&sort=name')).body.data!;
    assert.deepEqual([first.page, first.pageSize, first.total, first.models.length], [1, 2, 3, 2]);
    const second = (await page('pageSize=2&page=2&sort=name')).body.data!;
    assert.deepEqual([...first.models, ...second.models].map((m) => m.name), ['Cube-binary', 'Moon-binary', 'Star-ascii']);
    assert.equal((await page('search=MOON')).body.data!.total, 1);
    assert.equal((await page('folderId=root')).body.data!.total, 3);
    for (const q of ['page=0', 'pageSize=201', 'page=1.5', 'sort=colour', 'order=up', 'folderId=nope']) failed(await page(q), 400);
    failed(await api('GET', `/Model3D/GetModels?projectId=${projectId}`, undefined, otherToken), 403);
  });

  it('moves and renames a model', async () => {
    const folder = (await api<Folder>('POST', '/Folder/CreateFolder', { projectId, name: 'Moved' })).body.data!;
    const moved = (await api<ModelRecord>('PUT', '/Model3D/UpdateModel', { modelId: models[2].modelId, folderId: folder.folderId, name: 'Star' })).body.data!;
    assert.deepEqual([moved.folderId, moved.name], [folder.folderId, 'Star']);
    failed(await api('PUT', '/Model3D/UpdateModel', { modelId: models[2].modelId }), 400, /name or folderId/);
    assert.equal((await api<ModelRecord>('PUT', '/Model3D/UpdateModel', { modelId: models[2].modelId, folderId: null })).body.data!.folderId, null);
  });
});

describe('orders beyond CreateOrder', () => {
  const place = (reference = `ref-${crypto.randomUUID()}`, model = models[0]) =>
    api<OrderRecord>('POST', '/Order/CreateOrder', {
      projectId, firstName: 'Zoë', lastName: 'Ōkubo', streetAddress: 'Prinsengracht 263', postal: '1016 GV', city: 'Amsterdam',
      country: 'NL', email: 'zoe@example.com', models: [{ modelId: model.modelId, quantity: 1 }], shippingMethod: 201, orderReference: reference,
    });

  it('lists orders newest first, page by page, and by status', async () => {
    const placed = [];
    for (let i = 0; i < 3; i++) placed.push((await place()).body.data!);
    const list = (q: string) => api<{ orders: OrderRecord[]; total: number }>('GET', `/Order/GetOrders?projectId=${projectId}&${q}`);
    const all = (await list('pageSize=2')).body.data!;
    assert.equal(all.total, 3);
    assert.deepEqual(all.orders.map((o) => o.orderId), [placed[2].orderId, placed[1].orderId]);
    assert.equal((await list('status=cancelled')).body.data!.total, 0);
    failed(await list('status=lost'), 400);
    failed(await list('pageSize=0'), 400);
    failed(await api('GET', `/Order/GetOrders?projectId=${projectId}`, undefined, otherToken), 403);
  });

  it('looks an order up by id or by the caller’s reference', async () => {
    const reference = `ref-${crypto.randomUUID()}`;
    const created = (await place(reference)).body.data!;
    assert.equal((await api<OrderRecord>('GET', `/Order/GetOrder?orderReference=${encodeURIComponent(reference)}`)).body.data!.orderId, created.orderId);
    assert.equal((await api<OrderRecord>('GET', `/Order/GetOrder?orderId=${created.orderId}`)).body.data!.orderReference, reference);
    failed(await api('GET', '/Order/GetOrder?orderReference=never-used'), 404);
    failed(await api('GET', '/Order/GetOrder'), 400);
    failed(await api('GET', `/Order/GetOrder?orderId=${created.orderId}&orderReference=x`), 400, /not both/);
    failed(await api('GET', `/Order/GetOrder?orderReference=${encodeURIComponent(reference)}`, undefined, otherToken), 404);
    failed(await api('GET', `/Order/GetOrder?orderId=${created.orderId}`, undefined, otherToken), 403);
  });

  it('moves an order through its states, cancels while allowed, and keeps models an open order uses', async () => {
    const order = (await place(undefined, models[1])).body.data!;
    failed(await api('DELETE', `/Model3D/DeleteModel?modelId=${models[1].modelId}`), 409, /open order/);
    const update = (status: unknown) => api<OrderRecord>('PUT', '/Order/UpdateOrderStatus', { orderId: order.orderId, status });
    assert.equal((await update('in_production')).body.data!.status, 'in_production');
    failed(await update('received'), 409);
    failed(await update('teleported'), 400);
    const cancelled = await api<OrderRecord>('DELETE', `/Order/CancelOrder?orderId=${order.orderId}`);
    assert.equal(cancelled.body.data!.status, 'cancelled');
    assert.equal((await api<OrderRecord>('DELETE', `/Order/CancelOrder?orderId=${order.orderId}`)).status, 200, 'cancelling twice is fine');
    // Used by a closed order only: deleted for the library, kept for the order.
    assert.equal((await api('DELETE', `/Model3D/DeleteModel?modelId=${models[1].modelId}`)).status, 200);
    failed(await api('GET', `/Model3D/GetModelData?modelId=${models[1].modelId}`), 404);
    assert.equal((await api<OrderRecord>('GET', `/Order/GetOrder?orderId=${order.orderId}`)).body.data!.models[0].modelId, models[1].modelId);

    const shipped = (await place()).body.data!;
    await sandbox.operator.advanceOrder(shipped.orderId, 'in_production');
    await sandbox.operator.advanceOrder(shipped.orderId, 'shipped');
    failed(await api('DELETE', `/Order/CancelOrder?orderId=${shipped.orderId}`), 409, /can no longer be cancelled/);
  });
});

describe('bad input on the new routes', () => {
  const raw = (method: string, target: string, rawBody: string, contentType = 'application/json') =>
    call(url, method, target, { token, rawBody, headers: { 'Content-Type': contentType } });

  it('answers malformed JSON, wrong content types, non-objects and huge bodies with a 4xx envelope', async () => {
    for (const [method, target] of [['POST', '/Folder/CreateFolder'], ['PUT', '/Folder/RenameFolder'], ['PUT', '/Model3D/UpdateModel'], ['PUT', '/Order/UpdateOrderStatus'], ['POST', '/Model3D/CreateUpload']]) {
      failed(await raw(method, target, '{"name": '), 400);
      failed(await raw(method, target, '[1,2]'), 400);
      failed(await raw(method, target, '{}', 'text/plain'), 415);
      failed(await raw(method, target, JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) })), 413);
    }
  });

  it('answers non-GUID ids and unicode with 400, never a 500', async () => {
    for (const value of ['x', '日本語', '🧑‍🚀', "'; DROP TABLE models; --", '12345678-1234-1234-1234-1234567890123']) {
      const q = encodeURIComponent(value);
      for (const target of [`/Model3D/GetModels?projectId=${q}`, `/Model3D/DeleteModel?modelId=${q}`, `/Folder/DeleteFolder?folderId=${q}`, `/Order/GetOrder?orderId=${q}`, `/Order/CancelOrder?orderId=${q}`, `/Model3D/GetUploadOffset?uploadId=${q}`]) {
        const method = target.includes('Delete') || target.includes('Cancel') ? 'DELETE' : 'GET';
        failed(await api(method, target), 400);
      }
    }
  });
});

describe('the edges: built-in object keys and unexpected errors', () => {
  it('takes only its own sort keys: __proto__, constructor and the like are a 400 naming the real ones', async () => {
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
      failed(await api('GET', `/Model3D/GetModels?projectId=${projectId}&sort=${key}`), 400, /^sort must be one of name, createdAt, sizeBytes$/);
    }
  });

  it('a 500 names an incident and carries no internal text (paths, SQL), which goes to the log', async () => {
    const logged: string[] = [];
    const own = await startTestSandbox({ logError: (line) => logged.push(line) });
    try {
      const ownToken = (await login(own.baseUrl, own.demoAccount)).accessToken;
      const ownProject = (await own.operator.listProjects())[0].projectId;
      // Where stored models go is a file, not a folder: storing one fails inside the service.
      fs.writeFileSync(path.join(own.dataDir, 'models'), '');
      const body = fs.readFileSync(path.join(CORPUS, 'stl', 'Cube-binary.stl'));
      const response = await call(own.baseUrl, 'POST', `/Model3D/UploadModel?projectId=${ownProject}&fileName=cube.stl`, { token: ownToken, rawBody: body, headers: { 'Content-Type': 'application/octet-stream' } });
      failed(response, 500, /^Unexpected error in the service \(incident [0-9a-f]{8}\); the service's log has the details$/);
      const incident = /incident ([0-9a-f]{8})/.exec(response.body.error!.message)![1];
      assert.doesNotMatch(JSON.stringify(response.body), new RegExp(own.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.ok(logged.some((line) => line.includes(`incident ${incident}`) && line.includes(own.dataDir)), logged.join('\n'));
    } finally {
      await own.dispose();
    }
  });
});
