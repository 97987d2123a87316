// Every front door keeps what it writes for its user alone: every folder 0700 and every file 0600, by the
// mode bits and from another account's view (runuser -u nobody, where the tests run as root). Each data
// folder starts as an older PrintDesk left it (0755, a 0644 file in it) and sits where others may pass, so
// only PrintDesk's own modes keep them out. The desktop app's door is in tests/main/main.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startBrowserMode } from '../../electron/browser/main.ts';
import { STAGE_PATH } from '../../electron/browser/server.ts';
import { runBatchCommand } from '../../electron/cli/batch.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { call, login } from '../../sandbox/testing.ts';
import { CORPUS } from '../corpus.ts';
import { assertClosedToOthers, assertUnreadableByOthers, filesUnder, notPrivate } from '../private-tree.ts';
import { bridge } from './bridge-client.ts';
import { binaryStl } from './library-helpers.ts';

const root = join(import.meta.dirname, '..', '..');
let base: string;

before(() => {
  base = mkdtempSync(join(tmpdir(), 'printdesk-private-'));
  // A home folder others may pass through (as many are): the data folders' own modes are all that keeps them out.
  chmodSync(base, 0o755);
});
after(() => rmSync(base, { recursive: true, force: true }));

/** A data folder as an older PrintDesk left it: open to others, with a file of its anyone could read. */
function olderInstall(name: string, file: string, content: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { mode: 0o755 });
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, file), content, { mode: 0o644 });
  chmodSync(join(dir, file), 0o644);
  return dir;
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('browser mode: settings, database, sandbox, staged copies, uploads and the launch file are its user\'s alone', async (t) => {
  const userData = olderInstall('browser', 'config.json', '{}');
  const running = await startBrowserMode({ userDataDir: userData, openBrowser: false });
  try {
    const { origin, secret } = running.server;
    const staged = await fetch(`${origin}${STAGE_PATH}?secret=${secret}&name=part.stl`, { method: 'POST', body: new Uint8Array(binaryStl(50)), headers: { origin } });
    const { path } = (await staged.json()) as { path: string };
    const page = await bridge(origin, secret);
    try {
      const { demoAccount } = (await page.call('app:info')).value as { demoAccount: unknown };
      await page.call('session:signIn', demoAccount);
      const [project] = (await page.call('projects:list')).value as Array<{ projectId: string }>;
      await page.call('projects:select', { projectId: project.projectId });
      await page.call('uploads:enqueue', { projectId: project.projectId, paths: [path] });
      await until(async () => ((await page.call('uploads:list')).value as Array<{ state: string }>).every((item) => item.state === 'done'), 'the upload');
    } finally {
      page.close();
    }
    const files = filesUnder(userData).map((file) => file.slice(userData.length + 1));
    for (const expected of ['config.json', 'printdesk.db', 'printdesk.db-wal', 'instance.json', 'sandbox/sandbox.sqlite', 'sandbox/sandbox.sqlite-wal', 'sandbox/jwt-secret', 'sandbox/demo-password', 'sandbox/sandbox-runtime.json']) {
      assert.ok(files.includes(expected), `${expected} is among ${files.join(', ')}`);
    }
    assert.ok(files.some((file) => file.startsWith('staged/') && file.endsWith('/part.stl')));
    assert.ok(files.some((file) => file.startsWith('sandbox/models/')));
    assert.ok(files.includes(running.launchFile.slice(userData.length + 1)));
    assert.deepEqual(notPrivate(userData), []);
    assertClosedToOthers(t, userData);
  } finally {
    await running.close();
  }
});

test('the CLI: its data folder, the embedded sandbox it starts and the --report file are its user\'s alone', async (t) => {
  const userData = olderInstall('cli', 'printdesk.db', '');
  const seeded = await startSandbox({ dataDir: join(userData, 'sandbox'), quiet: true });
  const projectId = (await seeded.operator.listProjects())[0].projectId;
  await seeded.operator.addModel(projectId, join(CORPUS, 'stl', 'Cube-binary.stl'));
  await seeded.close();
  const csv = join(base, 'orders.csv');
  writeFileSync(csv, 'orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,quantity\nP-1,Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,Cube-binary.stl,1\n');
  // Recipients' names and addresses: a report left by an older run, readable by others, is taken back too.
  const report = join(base, 'report.csv');
  writeFileSync(report, 'old', { mode: 0o644 });
  let stderr = '';
  const io = {
    stdout: { write: () => true, isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PRINTDESK_USER_DATA: userData },
  };
  assert.equal(await runBatchCommand([csv, '--project', projectId, '--report', report], io), 0, stderr);
  assert.match(readFileSync(report, 'utf8'), /"placed","[0-9a-f-]{36}","P-1"/);
  assert.equal(statSync(report).mode & 0o777, 0o600);
  assert.deepEqual(notPrivate(userData), []);
  assertClosedToOthers(t, userData);
  assertUnreadableByOthers(t, report);
});

test('the sandbox on its own: its data folder, database, keys, demo password, uploads and models are its user\'s alone', async (t) => {
  const data = olderInstall('sandbox', 'sandbox.sqlite', '');
  const child = spawn(join(root, 'node_modules', '.bin', 'node'), [join(root, 'sandbox', 'cli.ts'), '--port', '0', '--data', data, '--quiet'], { cwd: root });
  const stopped = new Promise((resolve) => child.once('exit', resolve));
  try {
    let output = '';
    const started = new Promise<{ url: string; password: string }>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk;
        const url = /^sandbox listening on (\S+)$/m.exec(output)?.[1];
        const password = /^demo account: \S+ \/ (\S+)$/m.exec(output)?.[1];
        if (url && password && /^admin secret: /m.test(output)) resolve({ url, password });
      });
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${output}`)));
    });
    const { url, password } = await started;
    const { accessToken } = await login(url, { email: 'demo@printdesk.test', password });
    const projectId = ((await call<{ projects: Array<{ projectId: string }> }>(url, 'GET', '/Project/GetProjects', { token: accessToken })).body.data!).projects[0].projectId;
    const upload = await call(url, 'POST', `/Model3D/UploadModel?projectId=${projectId}&fileName=cube.stl`, {
      token: accessToken, rawBody: readFileSync(join(CORPUS, 'stl', 'Cube-binary.stl')), headers: { 'content-type': 'application/octet-stream' },
    });
    assert.equal(upload.status, 200);
    const opened = await call<{ uploadId: string }>(url, 'POST', '/Model3D/CreateUpload', { token: accessToken, json: { projectId, fileName: 'half.stl', sizeBytes: 684 } });
    await call(url, 'PUT', `/Model3D/AppendUpload?uploadId=${opened.body.data!.uploadId}&offset=0`, { token: accessToken, rawBody: new Uint8Array(100), headers: { 'content-type': 'application/octet-stream' } });
    const files = filesUnder(data).map((file) => file.slice(data.length + 1));
    assert.ok(files.some((file) => file.startsWith('uploads/') && file.endsWith('.part')), files.join(', '));
    assert.ok(files.some((file) => file.startsWith('models/')), files.join(', '));
    assert.ok(files.includes('demo-password'));
    assert.deepEqual(notPrivate(data), []);
    assertClosedToOthers(t, data);
  } finally {
    child.kill('SIGTERM');
    await stopped;
  }
});
