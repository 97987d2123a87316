// The host as the app builds it, with the service going away: what was cached stays browsable.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Project, ProjectSelection, Result } from '../../electron/contract/channels.ts';
import type { Folder, Model, ModelPage } from '../../electron/contract/schemas/library.ts';
import { createHost } from '../../electron/services/host.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { createMemoryVault } from '../../electron/services/session/token-vault.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { createMemoryStore } from '../../electron/services/storage/memory-store.ts';
import { corpusFile } from '../corpus.ts';

const value = <T>(result: Result<unknown>): T => {
  assert.ok(result.ok, JSON.stringify(result));
  return result.value as T;
};

/** The host as the app builds it (browser mode), on a sandbox the test can stop to go offline. */
async function hostOnSandbox() {
  const dataDir = mkdtempSync(join(tmpdir(), 'host-offline-'));
  const sandbox = await startSandbox({ dataDir, quiet: true });
  const host = createHost({
    mode: 'browser', version: 't', platform: 'linux', store: createMemoryStore(), vault: createMemoryVault('t'),
    db: openDatabase(':memory:'), sandbox: { baseUrl: sandbox.baseUrl, demoAccount: sandbox.demoAccount, running: sandbox.running }, timeoutMs: 2_000,
    modelCacheDir: join(dataDir, 'model-cache'),
  });
  return { sandbox, host };
}

test('offline, the signed-in user still sees the projects, the project last opened, and can open another of them', async () => {
  const { sandbox, host } = await hostOnSandbox();
  const events: boolean[] = [];
  host.subscribe('connectivity:changed', ({ online }) => events.push(online));
  value(await host.invoke('session:signIn', sandbox.demoAccount));
  await sandbox.operator.createProject('Spare parts', { assign: DEMO_EMAIL });
  const projects = value<Project[]>(await host.invoke('projects:list', undefined));
  const [project, other] = projects;
  value(await host.invoke('projects:select', { projectId: project.projectId }));
  await sandbox.close();

  const offline = value<Project[]>(await host.invoke('projects:list', undefined));
  assert.deepEqual(offline, projects);
  assert.equal(value<ProjectSelection>(await host.invoke('projects:current', undefined)).project?.projectId, project.projectId);
  // Another project of the list opens too (to draft orders in it); one the list never had does not.
  assert.equal(value<ProjectSelection>(await host.invoke('projects:select', { projectId: other.projectId })).project?.projectId, other.projectId);
  const unknown = await host.invoke('projects:select', { projectId: '00000000-0000-4000-8000-000000000000' });
  assert.ok(!unknown.ok && unknown.error.code === 'OFFLINE', JSON.stringify(unknown));
  value(await host.invoke('projects:select', { projectId: project.projectId }));
  // The embedded sandbox stopped, and the app says that, not that the service cannot be reached.
  assert.deepEqual(value(await host.invoke('connectivity:get', undefined)), { online: false, reason: 'sandbox-stopped' });
  assert.ok(!unknown.ok && unknown.error.details?.reason === 'sandbox-stopped', JSON.stringify(unknown));
  assert.deepEqual(events, [false]);
  assert.equal(value<{ status: string }>(await host.invoke('session:get', undefined)).status, 'signed-in');
  await host.dispose();
});

test('offline, the library lists the models and folders last seen, finds them by name and opens their details and previews', async () => {
  const { sandbox, host } = await hostOnSandbox();
  value(await host.invoke('session:signIn', sandbox.demoAccount));
  const { projectId } = (await sandbox.operator.listProjects())[0];
  const bracket = await sandbox.operator.addModel(projectId, corpusFile('stl', 'Cube-ascii.stl'), { name: 'Wall bracket' });
  const knob = await sandbox.operator.addModel(projectId, corpusFile('obj', 'suzanne.obj'), { name: 'Knob' });
  const gone = await sandbox.operator.addModel(projectId, corpusFile('3mf', 'box.3mf'), { name: 'Old lid' });
  const folder = await sandbox.operator.createFolder(projectId, 'Brackets');
  value(await host.invoke('projects:select', { projectId }));
  value(await host.invoke('library:moveModel', { modelId: bracket.modelId, folderId: folder.folderId }));
  value(await host.invoke('library:deleteModel', { projectId, modelId: gone.modelId }));
  const online = value<ModelPage>(await host.invoke('library:models', { projectId, pageSize: 200 }));
  assert.equal(online.asOf, undefined);
  value(await host.invoke('library:folders', { projectId }));
  // Previewed once online: its bytes are kept by hash.
  assert.ok(value<{ bytes: Uint8Array } | null>(await host.invoke('library:modelFile', { modelId: knob.modelId })));
  await sandbox.close();

  const all = value<ModelPage>(await host.invoke('library:models', { projectId, sort: 'name', order: 'asc' }));
  assert.ok(all.asOf && Date.parse(all.asOf) <= Date.now(), JSON.stringify(all));
  assert.deepEqual(all.models.map((m) => m.name), ['Knob', 'Wall bracket'], 'the deleted model is not listed');
  const inFolder = value<ModelPage>(await host.invoke('library:models', { projectId, folderId: folder.folderId }));
  assert.deepEqual(inFolder.models.map((m) => m.modelId), [bracket.modelId]);
  const unfiled = value<ModelPage>(await host.invoke('library:models', { projectId, folderId: null }));
  assert.deepEqual(unfiled.models.map((m) => m.modelId), [knob.modelId]);
  const named = value<ModelPage>(await host.invoke('library:models', { projectId, search: 'brack' }));
  assert.deepEqual(named.models.map((m) => m.name), ['Wall bracket']);
  assert.deepEqual(value<Folder[]>(await host.invoke('library:folders', { projectId })).map((f) => f.name), ['Brackets']);
  assert.equal(value<Model>(await host.invoke('library:model', { modelId: knob.modelId })).name, 'Knob');
  const file = value<{ source: string; bytes: Uint8Array } | null>(await host.invoke('library:modelFile', { modelId: knob.modelId }));
  assert.equal(file?.source, 'service');
  assert.equal(file?.bytes.length, knob.sizeBytes);
  // What was never seen is still an honest "cannot reach the service".
  const neverPreviewed = await host.invoke('library:modelFile', { modelId: bracket.modelId });
  assert.ok(!neverPreviewed.ok && neverPreviewed.error.code === 'OFFLINE', JSON.stringify(neverPreviewed));
  const rename = await host.invoke('library:moveModel', { modelId: knob.modelId, folderId: null });
  assert.ok(!rename.ok && rename.error.code === 'OFFLINE', 'changes still need the service');
  await host.dispose();
});

test('offline, a project whose models were never listed here says so rather than showing an empty library', async () => {
  const { sandbox, host } = await hostOnSandbox();
  value(await host.invoke('session:signIn', sandbox.demoAccount));
  const { projectId } = (await sandbox.operator.listProjects())[0];
  // Only a search was listed: that does not say what the whole project holds.
  value(await host.invoke('library:models', { projectId, search: 'x' }));
  await sandbox.close();
  const models = await host.invoke('library:models', { projectId });
  assert.ok(!models.ok && models.error.code === 'OFFLINE', JSON.stringify(models));
  const folders = await host.invoke('library:folders', { projectId });
  assert.ok(!folders.ok && folders.error.code === 'OFFLINE', JSON.stringify(folders));
  await host.dispose();
});
