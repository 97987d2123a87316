// The sandbox's upload protocol (docs/api-assumptions.md, after tus 1.0): sessions, offsets and
// their conflicts, chunk checksums, completion with hashing and the content check, dedup, limits,
// whole-file uploads, a restart mid-upload, and the reset-mid-body fault.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { call, login, startTestSandbox } from '../../sandbox/testing.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';
import { CORPUS } from '../corpus.ts';

const REAR = fs.readFileSync(path.join(CORPUS, 'stl', 'rear_case-binary.stl'));
const OCTET = { 'Content-Type': 'application/octet-stream' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Session { uploadId: string; offset: number; sizeBytes: number; state: string; complete: boolean; chunkSizeLimit: number; duplicate?: boolean; model?: { modelId: string; sha256: string; format: string; folderId: string | null } }

let sandbox: TestSandbox;
let url: string;
let token: string;
let projectId: string;
before(async () => {
  sandbox = await startTestSandbox();
  url = sandbox.baseUrl;
  token = (await login(url, sandbox.demoAccount)).accessToken;
  projectId = (await sandbox.operator.listProjects())[0].projectId;
});
after(() => sandbox.dispose());

const create = (json: Record<string, unknown>, t = token) => call<Session>(url, 'POST', '/Model3D/CreateUpload', { token: t, json: { projectId, ...json } });
const offsetOf = (uploadId: string) => call<Session>(url, 'GET', `/Model3D/GetUploadOffset?uploadId=${uploadId}`, { token });
const append = (uploadId: string, offset: number, bytes: Uint8Array, headers: Record<string, string> = {}) =>
  call<Session>(url, 'PUT', `/Model3D/AppendUpload?uploadId=${uploadId}&offset=${offset}`, { token, rawBody: bytes, headers: { ...OCTET, ...headers } });

function failed(response: { status: number; body: { success: boolean; error?: { type: string; message: string } } }, status: number, message?: RegExp) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.success, false);
  if (message) assert.match(response.body.error!.message, message);
}

describe('resumable sessions', () => {
  it('takes a file in chunks at the right offsets, then hashes, checks and stores it', async () => {
    const opened = await create({ fileName: 'rear.stl', sizeBytes: REAR.length });
    assert.equal(opened.status, 200);
    const { uploadId, offset, chunkSizeLimit } = opened.body.data!;
    assert.equal(offset, 0);
    assert.ok(chunkSizeLimit >= 1024 * 1024);
    const first = await append(uploadId, 0, REAR.subarray(0, 400_000));
    assert.equal(first.body.data!.offset, 400_000);
    assert.equal(first.headers.get('upload-offset'), '400000');
    failed(await append(uploadId, 0, REAR.subarray(0, 10)), 409, /does not match/);
    assert.equal((await offsetOf(uploadId)).body.data!.offset, 400_000);
    const last = await append(uploadId, 400_000, REAR.subarray(400_000));
    const done = last.body.data!;
    assert.equal(done.complete, true);
    assert.equal(done.model!.sha256, sha256(REAR));
    assert.equal(done.model!.format, 'stl');
    // A lost answer to the last append: asking again at the end gives the same result.
    const replay = await append(uploadId, REAR.length, new Uint8Array());
    assert.equal(replay.body.data!.model!.modelId, done.model!.modelId);
    failed(await append(uploadId, REAR.length, REAR.subarray(0, 5)), 409, /complete/);
  });

  it('answers a known hash without any bytes, and dedups at completion', async () => {
    const known = await create({ fileName: 'again.stl', sizeBytes: REAR.length, sha256: sha256(REAR) });
    assert.equal(known.body.data!.complete, true);
    assert.equal(known.body.data!.duplicate, true);
    const blind = await create({ fileName: 'blind.stl', sizeBytes: REAR.length });
    const end = await append(blind.body.data!.uploadId, 0, REAR);
    assert.equal(end.body.data!.duplicate, true);
    assert.equal(end.body.data!.model!.modelId, known.body.data!.model!.modelId);
    const forced = await create({ fileName: 'forced.stl', sizeBytes: REAR.length, sha256: sha256(REAR), allowDuplicate: true });
    assert.equal(forced.body.data!.complete, false);
  });

  it('checks a chunk against Upload-Checksum (460, nothing kept) and the whole file against sha256', async () => {
    const { uploadId } = (await create({ fileName: 'sum.stl', sizeBytes: REAR.length, allowDuplicate: true })).body.data!;
    const chunk = REAR.subarray(0, 1000);
    failed(await append(uploadId, 0, chunk, { 'Upload-Checksum': `sha256 ${createHash('sha256').update('x').digest('base64')}` }), 460);
    assert.equal((await offsetOf(uploadId)).body.data!.offset, 0);
    failed(await append(uploadId, 0, chunk, { 'Upload-Checksum': 'md5 abc' }), 400, /sha256/);
    const good = await append(uploadId, 0, chunk, { 'Upload-Checksum': `sha256 ${createHash('sha256').update(chunk).digest('base64')}` });
    assert.equal(good.body.data!.offset, 1000);

    const wrong = (await create({ fileName: 'wrong.stl', sizeBytes: REAR.length, sha256: 'a'.repeat(64) })).body.data!;
    failed(await append(wrong.uploadId, 0, REAR), 400, /SHA-256/);
    assert.equal((await offsetOf(wrong.uploadId)).body.data!.state, 'failed');
  });

  it('refuses content that does not match the file name, and bodies past the end', async () => {
    const cow = fs.readFileSync(path.join(CORPUS, 'obj', 'cow.obj'));
    const s = (await create({ fileName: 'cow.stl', sizeBytes: cow.length })).body.data!;
    failed(await append(s.uploadId, 0, cow), 400, /named \.stl but its content is OBJ/);
    const small = (await create({ fileName: 'small.stl', sizeBytes: 10 })).body.data!;
    failed(await append(small.uploadId, 0, REAR.subarray(0, 11)), 400, /past the end/);
  });

  it('validates the session request', async () => {
    failed(await create({ fileName: 'x.stl', sizeBytes: 513 * 1024 * 1024 }), 413);
    failed(await create({ fileName: 'x.txt', sizeBytes: 10 }), 400, /\.stl, \.obj or \.3mf/);
    failed(await create({ fileName: '../x.stl', sizeBytes: 10 }), 400, /not a path/);
    for (const sizeBytes of [0, -1, 1.5, '10', null]) failed(await create({ fileName: 'x.stl', sizeBytes }), 400);
    failed(await create({ fileName: 'x.stl', sizeBytes: 10, sha256: 'xyz' }), 400);
    failed(await create({ fileName: 'x.stl', sizeBytes: 10, folderId: 'nope' }), 400);
    failed(await create({ fileName: 'x.stl', sizeBytes: 10, projectId: crypto.randomUUID() }), 403);
    const { uploadId } = (await create({ fileName: 'x.stl', sizeBytes: 10 })).body.data!;
    failed(await call(url, 'PUT', `/Model3D/AppendUpload?uploadId=${uploadId}&offset=0`, { token, rawBody: 'abc', headers: { 'Content-Type': 'text/plain' } }), 415);
    failed(await call(url, 'PUT', `/Model3D/AppendUpload?uploadId=${uploadId}&offset=-1`, { token, rawBody: 'abc', headers: OCTET }), 400);
    failed(await call(url, 'PUT', `/Model3D/AppendUpload?uploadId=${uploadId}`, { token, rawBody: 'abc', headers: OCTET }), 400, /offset is not set/);
    failed(await offsetOf('not-a-guid'), 400);
    failed(await offsetOf(crypto.randomUUID()), 404);
  });

  it('hides one user’s sessions from another, and cancels', async () => {
    const { uploadId } = (await create({ fileName: 'mine.stl', sizeBytes: 100 })).body.data!;
    const other = (await login(url, sandbox.noProjectAccount)).accessToken;
    failed(await call(url, 'GET', `/Model3D/GetUploadOffset?uploadId=${uploadId}`, { token: other }), 404);
    const cancelled = await call<Session>(url, 'DELETE', `/Model3D/CancelUpload?uploadId=${uploadId}`, { token });
    assert.equal(cancelled.body.data!.state, 'cancelled');
    failed(await append(uploadId, 0, REAR.subarray(0, 10)), 409, /cancelled/);
  });
});

describe('whole-file uploads', () => {
  const upload = (query: string, body: Uint8Array | string, headers: Record<string, string> = OCTET) =>
    call<Session>(url, 'POST', `/Model3D/UploadModel?projectId=${projectId}&${query}`, { token, rawBody: body, headers });

  it('stores a streamed body and answers with the model', async () => {
    const spot = fs.readFileSync(path.join(CORPUS, 'obj', 'spot.obj'));
    const folder = await sandbox.operator.createFolder(projectId, 'Whole');
    const response = await upload(`fileName=spot.obj&folderId=${folder.folderId}&name=${encodeURIComponent('Spot 🐄')}`, spot);
    assert.equal(response.status, 200);
    assert.equal(response.body.data!.model!.sha256, sha256(spot));
    assert.equal(response.body.data!.model!.folderId, folder.folderId);
    const stored = fs.readFileSync(path.join(sandbox.dataDir, 'models', sha256(spot).slice(0, 2), sha256(spot)));
    assert.equal(stored.length, spot.length);
  });

  it('refuses empty, oversized, mistyped and malformed uploads with an envelope', async () => {
    failed(await upload('fileName=e.stl', new Uint8Array()), 400, /empty/);
    failed(await upload('fileName=e.stl', 'solid x', { 'Content-Type': 'application/json' }), 415);
    failed(await upload('fileName=e.stl', 'garbage that is no model'), 400);
    // Declared over the limit: answered at once, without waiting for 600 MiB.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${url}/Model3D/UploadModel?projectId=${projectId}&fileName=big.stl`, {
        method: 'POST', headers: { ...OCTET, Authorization: `Bearer ${token}`, 'Content-Length': String(600 * 1024 * 1024) },
      }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write(Buffer.alloc(64 * 1024));
    });
    assert.equal(answer.status, 413);
    assert.equal(JSON.parse(answer.body).success, false);
    failed(await upload('', 'x'), 400, /fileName is not set/);
  });
});

describe('durability and faults', () => {
  it('keeps a partial upload across a restart and finishes it after', async () => {
    const dataDir = sandbox.dataDir;
    const own = await startTestSandbox();
    const first = own.baseUrl;
    const t = (await login(first, own.demoAccount)).accessToken;
    const pid = (await own.operator.listProjects())[0].projectId;
    const opened = await call<Session>(first, 'POST', '/Model3D/CreateUpload', { token: t, json: { projectId: pid, fileName: 'r.stl', sizeBytes: REAR.length } });
    const { uploadId } = opened.body.data!;
    await call(first, 'PUT', `/Model3D/AppendUpload?uploadId=${uploadId}&offset=0`, { token: t, rawBody: REAR.subarray(0, 500_000), headers: OCTET });
    await own.close();
    const again = await startTestSandbox({ dataDir: own.dataDir });
    try {
      const t2 = (await login(again.baseUrl, again.demoAccount)).accessToken;
      const status = await call<Session>(again.baseUrl, 'GET', `/Model3D/GetUploadOffset?uploadId=${uploadId}`, { token: t2 });
      assert.equal(status.body.data!.offset, 500_000);
      const end = await call<Session>(again.baseUrl, 'PUT', `/Model3D/AppendUpload?uploadId=${uploadId}&offset=500000`, { token: t2, rawBody: REAR.subarray(500_000), headers: OCTET });
      assert.equal(end.body.data!.model!.sha256, sha256(REAR));
      assert.notEqual(own.dataDir, dataDir);
    } finally {
      await again.dispose();
    }
  });

  it('reset-mid-body keeps what arrived before the cut', async () => {
    const { uploadId } = (await create({ fileName: 'cut.stl', sizeBytes: REAR.length, allowDuplicate: true })).body.data!;
    sandbox.faults.set({ kind: 'reset-mid-body', path: '/Model3D/AppendUpload', afterBytes: 123_456, count: 1 });
    await assert.rejects(append(uploadId, 0, REAR));
    assert.equal((await offsetOf(uploadId)).body.data!.offset, 123_456);
    const rest = await append(uploadId, 123_456, REAR.subarray(123_456));
    assert.equal(rest.body.data!.complete, true);
  });
});
