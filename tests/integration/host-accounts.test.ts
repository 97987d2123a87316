// Two people on one computer: the upload queue is the signed-in account's. The host as the app builds it,
// against a real sandbox with a second user who has a project of their own.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { test, type TestContext } from 'node:test';
import type { ErrorCode, Result } from '../../electron/contract/channels.ts';
import { createHost } from '../../electron/services/host.ts';
import type { EnqueueResult, UploadItem } from '../../electron/services/library/index.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { makeTempDir, startTestSandbox } from '../../sandbox/testing.ts';
import { createMemoryVault } from '../../electron/services/session/token-vault.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { createMemoryStore } from '../../electron/services/storage/memory-store.ts';
import { binaryStl } from './library-helpers.ts';

const value = <T>(result: Result<unknown>): T => {
  assert.ok(result.ok, JSON.stringify(result));
  return result.value as T;
};
const failure = (result: Result<unknown>): ErrorCode => {
  assert.ok(!result.ok, 'expected a refusal');
  return result.error.code;
};

const other = { email: 'shop@example.com', password: 'another-long-password' };

/** A host on a sandbox where the demo account and `other` each have a project, and five files to upload. */
async function twoAccounts(t: TestContext) {
  const sandbox = await startTestSandbox();
  await sandbox.operator.addUser(other.email, other.password);
  const otherProject = (await sandbox.operator.createProject('Shop parts', { assign: other.email })).projectId;
  const demoProject = (await sandbox.operator.listProjects()).find((p) => p.assignedTo.includes(DEMO_EMAIL))!.projectId;
  const host = createHost({
    mode: 'browser', version: 't', platform: 'linux', store: createMemoryStore(), vault: createMemoryVault('t'),
    db: openDatabase(':memory:'), sandbox: { baseUrl: sandbox.baseUrl, demoAccount: sandbox.demoAccount }, timeoutMs: 5_000,
  });
  t.after(async () => {
    await host.dispose();
    await sandbox.dispose();
  });
  const dir = makeTempDir('printdesk-accounts-');
  // More than the three sent at once: some wait in line when the account signs out.
  const paths = [1, 2, 3, 4, 5].map((n) => {
    const file = join(dir, `part-${n}.stl`);
    writeFileSync(file, binaryStl(200, n));
    return file;
  });
  host.grantPaths(paths);
  const list = async () => value<UploadItem[]>(await host.invoke('uploads:list', undefined));
  /** The demo account queues the five files, slowed so that what the test does next finds them on their way. */
  const uploadingAsDemo = async (latencyMs: number) => {
    sandbox.faults.set({ kind: 'latency', path: '/Model3D/UploadModel', ms: latencyMs });
    value(await host.invoke('session:signIn', sandbox.demoAccount));
    const { added } = value<EnqueueResult>(await host.invoke('uploads:enqueue', { projectId: demoProject, paths }));
    await delay(200);
    return added;
  };
  return { sandbox, host, otherProject, demoProject, paths, list, uploadingAsDemo };
}

test("one account's uploads are neither shown to nor sent by the next, and carry on when it returns", async (t) => {
  const { sandbox, host, otherProject, demoProject, paths, list, uploadingAsDemo } = await twoAccounts(t);

  const added = await uploadingAsDemo(1_500);
  assert.equal(added.length, 5);
  value(await host.invoke('session:signOut', undefined));
  assert.deepEqual(await list(), [], 'nothing is listed while signed out');
  assert.equal(failure(await host.invoke('uploads:enqueue', { projectId: demoProject, paths })), 'NOT_SIGNED_IN');

  sandbox.faults.clear();
  value(await host.invoke('session:signIn', other));
  assert.deepEqual(await list(), [], "the next account does not see the first one's queue");
  assert.equal(failure(await host.invoke('uploads:pause', { id: added[0].id })), 'INVALID_INPUT', 'nor can it act on it');
  // Its own upload of the same file is its own, not a duplicate of the first account's.
  const mine = value<EnqueueResult>(await host.invoke('uploads:enqueue', { projectId: otherProject, paths: [paths[0]] }));
  assert.equal(mine.added.length, 1);
  await waitFor(async () => (await list()).every((item) => item.state === 'done'));
  assert.deepEqual((await list()).map((item) => item.id), [mine.added[0].id]);
  await delay(300);
  assert.equal((await sandbox.operator.listModels(demoProject)).length, 0, "nothing of the first account's went while the second was signed in");
  value(await host.invoke('session:signOut', undefined));

  value(await host.invoke('session:signIn', sandbox.demoAccount));
  await waitFor(async () => {
    const items = await list();
    return items.length === 5 && items.every((item) => item.state === 'done');
  });
  assert.deepEqual((await list()).map((item) => item.id).sort(), added.map((item) => item.id).sort());
  assert.equal((await sandbox.operator.listModels(demoProject)).length, 5, 'they went once their account signed in again');
});

test('the same address in other capitals is the same account: what it left is there', async (t) => {
  const { sandbox, host, list, uploadingAsDemo } = await twoAccounts(t);
  const added = await uploadingAsDemo(1_500);
  value(await host.invoke('session:signOut', undefined));
  value(await host.invoke('session:signIn', { ...sandbox.demoAccount, email: ` ${DEMO_EMAIL.toUpperCase()}` }));
  assert.deepEqual((await list()).map((item) => item.id).sort(), added.map((item) => item.id).sort());
});

test("signing in over another account's session stops that account's uploads as a sign-out would", async (t) => {
  const { sandbox, host, demoProject, list, uploadingAsDemo } = await twoAccounts(t);
  await uploadingAsDemo(1_500);
  value(await host.invoke('session:signIn', other));
  sandbox.faults.clear();
  await delay(2_000);
  assert.deepEqual(await list(), []);
  assert.equal((await sandbox.operator.listModels(demoProject)).length, 0, "nothing of the first account's went under the second");
  value(await host.invoke('session:signIn', sandbox.demoAccount));
  await waitFor(async () => (await list()).every((item) => item.state === 'done'));
  assert.equal((await sandbox.operator.listModels(demoProject)).length, 5);
});

test('signing out and straight back in carries on with every upload, even those still winding down', async (t) => {
  const { sandbox, host, demoProject, list, uploadingAsDemo } = await twoAccounts(t);
  await uploadingAsDemo(1_000);
  value(await host.invoke('session:signOut', undefined));
  value(await host.invoke('session:signIn', sandbox.demoAccount));
  await waitFor(async () => (await list()).every((item) => item.state === 'done'));
  assert.equal((await sandbox.operator.listModels(demoProject)).length, 5);
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting for the uploads');
    await delay(50);
  }
}
