// The start most order tests share: the app signed in with the demo account, on its first project, with a
// model of the corpus in it.
import { join } from 'node:path';
import type { AppUnderTest } from './harness.ts';
import { projectsPage } from './pages/projects.ts';
import { signInPage } from './pages/sign-in.ts';
import { CORPUS as corpus } from '../corpus.ts';

export async function signedInWithModel(app: AppUnderTest, modelFile = 'Moon-binary.stl') {
  const sandbox = app.booted.sandbox;
  if (!sandbox) throw new Error('The app started without its sandbox');
  const [project] = await sandbox.operator.listProjects();
  const model = await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', modelFile));
  await signInPage(app.page).dismissVaultNotice();
  await signInPage(app.page).signInWithDemo();
  await projectsPage(app.page).open();
  await projectsPage(app.page).home.waitFor();
  return { sandbox, project, model };
}
