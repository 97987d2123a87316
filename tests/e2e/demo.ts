// The demo account's project as the e2e tests start from it, and a recipient to order for.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CORPUS as corpus } from '../corpus.ts';
import { expect } from './expect.ts';
import type { AppUnderTest } from './harness.ts';
import { projectsPage } from './pages/projects.ts';
import { signInPage } from './pages/sign-in.ts';

export const RECIPIENT = {
  firstName: 'Grace',
  lastName: 'Hopper',
  streetAddress: 'Damrak 1',
  postal: '1012 LG',
  city: 'Amsterdam',
  country: 'Netherlands',
  email: 'grace@example.com',
  phoneNumber: '+31 20 555 0100',
};

/** Signs in with the demo account and opens its project, with one real model added behind the app's back; its id. */
export async function openDemoProject(app: AppUnderTest): Promise<string> {
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  const [project] = await sandbox.operator.listProjects();
  const model = await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'));
  await signInPage(app.page).dismissVaultNotice();
  await signInPage(app.page).signInWithDemo();
  await projectsPage(app.page).open();
  await expect(projectsPage(app.page).home).visible();
  return model.modelId;
}
