// Browser mode started a second time on the same data folder, as a file manager's "Open with" does: the file
// goes to the page already open, which asks about it; the second launch ends and no second page opens.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { AlreadyRunning, startBrowserMode } from '../../electron/browser/main.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { expect } from './expect.ts';
import { launchChromium } from './harness.ts';
import { confirmDialog } from './pages/dialog.ts';
import { libraryPage } from './pages/library.ts';
import { projectsPage } from './pages/projects.ts';
import { signInPage } from './pages/sign-in.ts';

const root = join(import.meta.dirname, '..', '..');
let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => browser.close());

test('a second launch with a model hands it to the open page, which asks to upload it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'printdesk-second-launch-'));
  const opened: string[] = [];
  const first = await startBrowserMode({ userDataDir: join(dir, 'data'), openBrowser: (file) => opened.push(file) });
  t.after(async () => {
    await first.close();
    await rm(dir, { recursive: true, force: true });
  });
  const page = await (await browser.newContext({ viewport: { width: 1200, height: 780 } })).newPage();
  // What the browser is given: the launch page, which forwards to the app with its secret.
  await page.goto(pathToFileURL(opened[0]).href);
  await signInPage(page).dismissVaultNotice();
  await signInPage(page).signInWithDemo();
  const projects = projectsPage(page);
  await projects.open();
  await expect(projects.home).visible();

  const moon = join(corpus, 'stl', 'Moon-binary.stl');
  const second = await startBrowserMode({ userDataDir: join(dir, 'data'), openBrowser: false, files: [moon] }).catch((error: unknown) => error);
  assert.ok(second instanceof AlreadyRunning, 'the second launch ended');
  assert.match(second.message, /the file was handed to it to upload: its page in your browser has them/);
  // The page goes to the library and asks.
  const lib = libraryPage(page);
  await expect(lib.view).visible();
  const dialog = confirmDialog(page);
  await expect(dialog.view).hasText('Upload Moon-binary.stl?');
  await mkdir(join(root, 'test-results'), { recursive: true });
  await page.screenshot({ path: join(root, 'test-results', 'second-launch-hand-over.png') });
  await dialog.yes();
  await lib.lists(1, 30_000);
  assert.equal(await lib.names.first().textContent(), 'Moon-binary');
  assert.equal(opened.length, 1, 'no second page was opened: the one open was told');
});
