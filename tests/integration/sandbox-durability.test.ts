// Durability across restarts and kills, and the command line: `sandbox` runs the server,
// `sandbox operator …` works on the same data directory, also while the server runs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { RUNTIME_FILE, startSandbox } from '../../sandbox/server.ts';
import { DEMO_EMAIL, DEMO_PASSWORD_FILE, type Account } from '../../sandbox/seed.ts';
import { call, login, makeTempDir } from '../../sandbox/testing.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const CLI = path.join(ROOT, 'sandbox/cli.ts');
const dirs: string[] = [];
after(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = makeTempDir();
  dirs.push(dir);
  return dir;
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [CLI, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts `sandbox --port 0 --data dir` and resolves once it has printed what it prints at start: the URL and
 * the demo account with this data directory's password (the only place a user learns it, besides the file).
 */
function serve(dataDir: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string; demo: Account; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [CLI, '--port', '0', '--data', dataDir, '--quiet'], { cwd: ROOT });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const url = /^sandbox listening on (http:\/\/127\.0\.0\.1:\d+\/v2)\n/.exec(stdout);
      const demo = /^demo account: (\S+) \/ (\S+)\n/m.exec(stdout);
      if (url && demo && /^admin secret: /m.test(stdout)) resolve({ child, url: url[1], demo: { email: demo[1], password: demo[2] }, output: () => stdout });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stdout}`)));
  });
}

function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('durability', () => {
  it('keeps users, projects and tokens across a restart', async () => {
    const dataDir = tempDir();
    const first = await startSandbox({ dataDir, quiet: true });
    await first.operator.addUser('kept@printdesk.test', 'kept-password');
    const project = await first.operator.createProject('Kept project', { assign: 'kept@printdesk.test' });
    const tokens = await login(first.baseUrl, { email: 'kept@printdesk.test', password: 'kept-password' });
    await first.close();

    const second = await startSandbox({ dataDir, quiet: true });
    try {
      // the signing key is kept too: tokens issued before the restart are still good
      const projects = await call<{ projects: { projectId: string }[] }>(second.baseUrl, 'GET', '/Project/GetProjects', { token: tokens.accessToken });
      assert.deepEqual(projects.body.data!.projects.map((p) => p.projectId), [project.projectId]);
      assert.equal((await call(second.baseUrl, 'POST', '/Auth/RefreshToken', { json: { refreshToken: tokens.refreshToken } })).status, 200);
      assert.equal((await second.operator.listUsers()).length, 3, 'seeded once, not again');
    } finally {
      await second.close();
    }
  });

  it('keeps the demo password of its data directory, and makes a new one for a directory that lost or never had it', async () => {
    const dataDir = tempDir();
    const first = await startSandbox({ dataDir, quiet: true });
    const { password } = first.demoAccount;
    assert.match(password, /^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    assert.equal(fs.statSync(path.join(dataDir, DEMO_PASSWORD_FILE)).mode & 0o777, 0o600);
    await first.close();
    const second = await startSandbox({ dataDir, quiet: true });
    assert.equal(second.demoAccount.password, password, 'the same after a restart');
    await login(second.baseUrl, second.noProjectAccount);
    await second.close();
    // As a PrintDesk that seeded the published password left it: no file. The accounts get the new one.
    fs.rmSync(path.join(dataDir, DEMO_PASSWORD_FILE));
    const third = await startSandbox({ dataDir, quiet: true });
    try {
      assert.notEqual(third.demoAccount.password, password);
      assert.equal((await call(third.baseUrl, 'POST', '/Auth/Login', { json: { email: DEMO_EMAIL, password } })).status, 400, 'the old password is gone');
      await login(third.baseUrl, third.demoAccount);
      await login(third.baseUrl, third.noProjectAccount);
      assert.equal((await third.operator.listUsers()).length, 2, 'not seeded again');
    } finally {
      await third.close();
    }
  });

  it('survives a kill -9 of the server process', async () => {
    const dataDir = tempDir();
    const { child, url } = await serve(dataDir);
    assert.equal((await run(['operator', 'add-user', 'killed@printdesk.test', 'killed-password', '--data', dataDir])).code, 0);
    const tokens = await login(url, { email: 'killed@printdesk.test', password: 'killed-password' });
    const gone = exited(child);
    child.kill('SIGKILL');
    await gone;

    const restarted = await serve(dataDir);
    try {
      assert.equal((await call(restarted.url, 'POST', '/Auth/RefreshToken', { json: { refreshToken: tokens.refreshToken } })).status, 200);
      await login(restarted.url, { email: 'killed@printdesk.test', password: 'killed-password' });
    } finally {
      const done = exited(restarted.child);
      restarted.child.kill('SIGTERM');
      await done;
    }
  });
});

describe('command line', () => {
  it('prints the listening line, the demo credentials and the admin secret, and stops on SIGTERM', async () => {
    const dataDir = tempDir();
    const { child, url, demo, output } = await serve(dataDir);
    const lines = output().trim().split('\n');
    assert.match(lines[0], /^sandbox listening on http:\/\/127\.0\.0\.1:\d+\/v2$/);
    assert.equal(demo.email, DEMO_EMAIL);
    assert.notEqual(demo.password, 'printdesk-demo', 'not the password README once published');
    assert.equal(fs.readFileSync(path.join(dataDir, DEMO_PASSWORD_FILE), 'utf8').trim(), demo.password, 'kept in the data directory');
    assert.ok(lines.some((l) => /^admin secret: \S+$/.test(l)));
    assert.ok(fs.existsSync(path.join(dataDir, RUNTIME_FILE)));
    await login(url, demo);
    const done = exited(child);
    child.kill('SIGTERM');
    assert.deepEqual(await done, { code: 0, signal: null });
    assert.equal(fs.existsSync(path.join(dataDir, RUNTIME_FILE)), false);
  });

  it('operator commands manage users and projects on the data directory', async () => {
    const dataDir = tempDir();
    const data = ['--data', dataDir];
    const help = await run(['operator', '--help']);
    assert.equal(help.code, 0);
    for (const command of ['add-user', 'create-project', 'assign', 'unassign', 'list-users', 'list-projects', 'faults set', 'faults clear']) {
      assert.ok(help.stdout.includes(command), command);
    }
    assert.equal((await run(['operator', 'add-user', 'ops@printdesk.test', 'ops-password', ...data])).code, 0);
    const created = await run(['operator', 'create-project', 'Ops project', '--assign', 'ops@printdesk.test', '--json', ...data]);
    assert.equal(created.code, 0, created.stderr);
    const project = JSON.parse(created.stdout) as { projectId: string; assignedTo: string[] };
    assert.deepEqual(project.assignedTo, ['ops@printdesk.test']);
    assert.equal((await run(['operator', 'assign', project.projectId, 'demo@printdesk.test', ...data])).code, 0);
    assert.equal((await run(['operator', 'unassign', project.projectId, 'ops@printdesk.test', ...data])).code, 0);
    const projects = JSON.parse((await run(['operator', 'list-projects', '--json', ...data])).stdout) as { name: string; assignedTo: string[] }[];
    assert.deepEqual(projects.find((p) => p.name === 'Ops project')?.assignedTo, ['demo@printdesk.test']);
    const users = JSON.parse((await run(['operator', 'list-users', '--json', ...data])).stdout) as { email: string }[];
    assert.deepEqual(users.map((u) => u.email).sort(), ['demo@printdesk.test', 'noproject@printdesk.test', 'ops@printdesk.test']);
    assert.match((await run(['operator', 'list-users', ...data])).stdout, /ops@printdesk\.test/);
  });

  it('operator commands fail clearly on bad input', async () => {
    const data = ['--data', tempDir()];
    const duplicate = await run(['operator', 'add-user', 'demo@printdesk.test', 'whatever-pw', ...data]);
    assert.equal(duplicate.code, 1);
    assert.match(duplicate.stderr, /already exists/);
    assert.equal((await run(['operator', 'assign', 'not-a-guid', 'demo@printdesk.test', ...data])).code, 1);
    assert.equal((await run(['operator', 'create-project', 'X', '--assign', 'nobody@printdesk.test', ...data])).code, 1);
    assert.equal((await run(['operator', 'frobnicate', ...data])).code, 1);
    assert.equal((await run(['operator', 'add-user', '--nope', ...data])).code, 2);
  });

  it('operator commands add models and folders and list them with uploads', async () => {
    const data = ['--data', tempDir()];
    const projects = JSON.parse((await run(['operator', 'list-projects', '--json', ...data])).stdout) as { projectId: string }[];
    const projectId = projects[0].projectId;
    const cube = path.resolve(import.meta.dirname, '../../../shared/corpus/stl/Cube-binary.stl');
    assert.equal((await run(['operator', 'add-model', projectId, cube, ...data])).code, 0);
    const folder = await run(['operator', 'create-folder', projectId, 'Parts', '--json', ...data]);
    assert.equal(folder.code, 0, folder.stderr);
    const child = await run(['operator', 'create-folder', projectId, 'Gears', '--parent', (JSON.parse(folder.stdout) as { folderId: string }).folderId, ...data]);
    assert.equal(child.code, 0, child.stderr);
    assert.match((await run(['operator', 'list-folders', projectId, ...data])).stdout, /"Gears"\s+parent [0-9a-f-]{36}/);
    assert.match((await run(['operator', 'list-models', projectId, ...data])).stdout, /"Cube-binary"\s+stl\s+684 bytes/);
    assert.equal((await run(['operator', 'list-uploads', ...data])).stdout.trim(), '(no uploads)');
    const broken = await run(['operator', 'add-model', projectId, path.resolve(import.meta.dirname, '../../../shared/corpus/stl/LICENSE.numpy-stl'), ...data]);
    assert.equal(broken.code, 1);
  });

  it('operator faults set/clear talk to the running sandbox', async () => {
    const dataDir = tempDir();
    const { child, url, demo } = await serve(dataDir);
    try {
      const { accessToken } = await login(url, demo);
      const set = await run(['operator', 'faults', 'set', '{"kind":"status-5xx","path":"/Project/","count":1}', '--data', dataDir]);
      assert.equal(set.code, 0, set.stderr);
      assert.equal((await call(url, 'GET', '/Project/GetProjects', { token: accessToken })).status, 503);
      assert.equal((await call(url, 'GET', '/Project/GetProjects', { token: accessToken })).status, 200);
      await run(['operator', 'faults', 'set', '[{"kind":"rate-limit","retryAfterSeconds":2}]', '--data', dataDir]);
      assert.equal((await call(url, 'GET', '/Project/GetProjects', { token: accessToken })).status, 429);
      assert.equal((await run(['operator', 'faults', 'clear', '--data', dataDir])).code, 0);
      assert.equal((await call(url, 'GET', '/Project/GetProjects', { token: accessToken })).status, 200);
      const wrong = await run(['operator', 'faults', 'clear', '--url', url, '--secret', 'wrong']);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /401/);
    } finally {
      const done = exited(child);
      child.kill('SIGTERM');
      await done;
    }
  });
});
