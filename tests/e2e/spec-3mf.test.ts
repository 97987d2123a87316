// A 3MF that breaks the 3MF specification, as a user meets it: told before it is uploaded (and uploaded
// anyway when they say so), then in the model's details with each rule and where, its preview drawn all
// the same.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { pixelsUntil } from './canvas-pixels.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp } from './harness.ts';
import { confirmDialog } from './pages/dialog.ts';
import { libraryPage } from './pages/library.ts';
import { modelDetail } from './pages/model-detail.ts';
import { workspace } from './pages/workspace.ts';
import { projectsPage } from './pages/projects.ts';
import { signInPage } from './pages/sign-in.ts';
import { uploadQueue } from './pages/upload-queue.ts';
import { CUBE_OBJECT, modelXml, package3mf } from '../threemf-fixtures.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

test('a 3MF that breaks the specification is told before upload, uploaded when the user says so, and its details say what and where', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const page = app.page;
  const lib = libraryPage(page);
  const dir = await mkdtemp(join(tmpdir(), 'spec-3mf-'));
  // The colour group and the cube share an id, and a triangle uses a colour the group does not have.
  const model = modelXml(`<m:colorgroup id="1"><m:color color="#E0262B"/></m:colorgroup>\n${CUBE_OBJECT.replace('<triangle v1="0" v2="2" v3="1"', '<triangle v1="0" v2="2" v3="1" pid="1" p1="4"')}`);
  const file = join(dir, 'bracket.3mf');
  await writeFile(file, package3mf({ model }));
  await signInPage(page).dismissVaultNotice();
  await signInPage(page).signInWithDemo();
  await projectsPage(page).open();
  await workspace(page).nav('library');

  // Told before anything is sent; left out, it is said so and nothing is uploaded.
  await lib.fileInput.setInputFiles([file]);
  const dialog = confirmDialog(page);
  await expect(dialog.view).hasText('Upload a 3MF that breaks the 3MF specification?');
  await expect(dialog.view).hasText('bracket.3mf: This 3MF breaks the 3MF specification: Resource id 1 is used twice');
  await expect(dialog.view).hasText('the service may refuse it.');
  await app.screenshot('spec-3mf-before-upload');
  await dialog.no();
  await expect(uploadQueue(page).notice).hasText('bracket.3mf was left out: it breaks the 3MF specification');
  assert.equal(await lib.rows.count(), 0);

  // Added again and uploaded anyway: the service takes it.
  await lib.fileInput.setInputFiles([file]);
  await expect(dialog.view).hasText('bracket.3mf');
  await dialog.yes();
  await lib.lists(1, 30_000);

  // Its details say what it breaks and where; the cube is drawn all the same.
  await lib.open();
  const details = modelDetail(page);
  const violations = details.specViolations;
  await expect(violations).hasText('This 3MF breaks the 3MF specification: Resource id 1 is used twice: by <m:colorgroup> (line 4) and by <object>;');
  await expect(violations).hasText('the service may refuse it.');
  await details.showSpecViolations();
  const rules = await details.specRules();
  assert.deepEqual(rules, ['core.resource-id-unique', 'core.pindex']);
  await expect(details.specViolation.first()).hasText('3MF Core 3.4.2');
  await expect(details.specViolation.first()).hasText('3D/3dmodel.model · <object> · id 1 · line 5');
  // Its triangle with a colour beyond its group makes it a model of colours: the grey of "no colour".
  await pixelsUntil(details.canvas, (s) => s.distinct > 4 && s.dark > s.total * 0.05, 'the grey cube');
  await details.specViolation.last().scrollIntoViewIfNeeded();
  await app.screenshot('spec-3mf-details');
});
