// The host as the app builds it, with the service going away: what was cached stays browsable.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Project, ProjectSelection, Result } from '../../electron/contract.ts';
import { createHost } from '../../electron/host.ts';
import { DEMO_ACCOUNT } from '../../electron/sandbox/seed.ts';
import { startSandbox } from '../../electron/sandbox/server.ts';
import { createMemoryVault } from '../../electron/session/token-vault.ts';
import { openDatabase } from '../../electron/storage/database.ts';
import { createMemoryStore } from '../../electron/storage/memory-store.ts';

const value = <T>(result: Result<unknown>): T => {
  assert.ok(result.ok, JSON.stringify(result));
  return result.value as T;
};

test('offline, the signed-in user still sees the projects, the project last opened, and can open another of them', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'host-offline-'));
  const sandbox = await startSandbox({ dataDir, quiet: true });
  const host = createHost({
    mode: 'browser',
    version: 't',
    platform: 'linux',
    store: createMemoryStore(),
    vault: createMemoryVault('t'),
    db: openDatabase(':memory:'),
    sandbox: { baseUrl: sandbox.baseUrl, demoAccount: { ...DEMO_ACCOUNT } },
    timeoutMs: 2_000,
  });
  const events: boolean[] = [];
  host.subscribe('connectivity:changed', ({ online }) => events.push(online));
  value(await host.invoke('session:signIn', DEMO_ACCOUNT));
  await sandbox.operator.createProject('Spare parts', { assign: DEMO_ACCOUNT.email });
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
  assert.deepEqual(value(await host.invoke('connectivity:get', undefined)), { online: false });
  assert.deepEqual(events, [false]);
  assert.equal(value<{ status: string }>(await host.invoke('session:get', undefined)).status, 'signed-in');
  await host.dispose();
});
