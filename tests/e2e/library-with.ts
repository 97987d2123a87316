// The way most preview tests begin: signed in with the demo account, in the first project's library, one
// model file added and listed.
import type { Page } from 'playwright-core';
import { libraryPage } from './pages/library.ts';
import { workspace } from './pages/workspace.ts';
import { projectsPage } from './pages/projects.ts';
import { signInPage } from './pages/sign-in.ts';

export async function libraryWith(page: Page, file: string, timeout = 30_000): Promise<ReturnType<typeof libraryPage>> {
  await signInPage(page).dismissVaultNotice();
  await signInPage(page).signInWithDemo();
  await projectsPage(page).open();
  await workspace(page).nav('library');
  const lib = libraryPage(page);
  await lib.fileInput.setInputFiles([file]);
  await lib.lists(1, timeout);
  return lib;
}
