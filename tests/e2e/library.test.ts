import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import type { Browser } from 'playwright-core';
import { pixelsUntil } from './canvas-pixels.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp, openAppOnProject, type AppUnderTest } from './harness.ts';
import { libraryPage } from './pages/library.ts';
import { confirmDialog } from './pages/dialog.ts';
import { modelDetail } from './pages/model-detail.ts';
import { orderForm } from './pages/order-form.ts';
import { projectHome } from './pages/project-home.ts';
import { quotePage } from './pages/quote.ts';
import { uploadQueue } from './pages/upload-queue.ts';
import { workspace } from './pages/workspace.ts';
import { projectsPage } from './pages/projects.ts';
import { signInPage } from './pages/sign-in.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { binaryStl, torusWith } from '../../scripts/generate-models.ts';

const GOOD = [join(corpus, 'stl', 'Moon-binary.stl'), join(corpus, 'stl', 'HalfDonut-ascii.stl'), join(corpus, 'obj', 'suzanne.obj'), join(corpus, '3mf', 'box.3mf')];

let browser: Browser;
let broken: string[];
/** Not a model at all: a picker's "All files" lets it through. */
let notes: string;
before(async () => {
  browser = await launchChromium();
  const dir = await mkdtemp(join(tmpdir(), 'broken-models-'));
  const cube = await readFile(join(corpus, 'stl', 'Cube-binary.stl'));
  broken = [join(dir, 'truncated.stl'), join(dir, 'not-a-model.3mf'), join(dir, 'empty.obj')];
  await writeFile(broken[0], cube.subarray(0, cube.length - 30));
  await writeFile(broken[1], 'this is not a zip file at all');
  await writeFile(broken[2], '');
  notes = join(dir, 'notes.txt');
  await writeFile(notes, 'print these in PLA');
});
after(() => closeAll(browser));

/** The app, closed after the test, and its sandbox's first project, for models added behind the app's back. */
async function appWithSandbox(t: TestContext) {
  const opened = await openAppOnProject(browser, t);
  return { ...opened, lib: libraryPage(opened.app.page), dialog: confirmDialog(opened.app.page) };
}

/** A new app, signed in with the demo account, on its project's library; closed when the test ends. */
async function appOnLibrary(t: TestContext) {
  const app = await openApp(browser);
  t.after(() => app.close());
  await openLibrary(app);
  return { app, lib: libraryPage(app.page) };
}

/** Signed in with the demo account, on the library of `project`, its first model listed. */
async function openProjectLibrary(app: AppUnderTest, project: { name: string }) {
  await signInPage(app.page).dismissVaultNotice();
  await signInPage(app.page).signInWithDemo();
  await projectsPage(app.page).open(project.name);
  await workspace(app.page).nav('library');
  await expect(libraryPage(app.page).rows.first()).visible();
}

async function openLibrary(app: AppUnderTest) {
  await signInPage(app.page).dismissVaultNotice();
  await signInPage(app.page).signInWithDemo();
  await projectsPage(app.page).open();
  await workspace(app.page).nav('library');
  await expect(libraryPage(app.page).view).visible();
}

test('models dropped or picked are checked, uploaded, listed, and broken files are named with the reason', async (t) => {
  const { app, lib } = await appOnLibrary(t);
  const queue = uploadQueue(app.page);
  await expect(lib.empty).visible();
  await app.screenshot('20-library-empty');
  // Slow the service so the queue can be seen at work (at 400 ms the small files could all be through before the
  // empty state was read, on a fast run).
  app.booted.sandbox?.faults.set({ kind: 'latency', path: '/Model3D/', ms: 1_000 });
  await lib.fileInput.setInputFiles([...GOOD, ...broken, notes]);
  await expect(queue.errors).visible();
  await expect(queue.notice).hasText('4 added to the upload queue.');
  await expect(queue.notice).hasText('3 of the 7 files just added could not be uploaded (below).');
  await expect(queue.notice).hasText('notes.txt is not STL, OBJ or 3MF and was left out');
  await expect(queue.items.first()).visible();
  await expect(lib.empty).hasText('on their way');
  await app.screenshot('21-library-uploading');
  const errors = await queue.errors.textContent();
  for (const name of ['truncated.stl', 'not-a-model.3mf', 'empty.obj']) assert.ok(errors?.includes(name), `${name} should be listed: ${errors}`);
  await lib.lists(4, 30_000);
  app.booted.sandbox?.faults.clear();
  // With the uploads through, "added to the queue" is no longer news; what was left out stays said until dismissed.
  await queue.noticeDropped('added to the upload queue');
  await expect(queue.notice).hasText('notes.txt is not STL, OBJ or 3MF and was left out');
  await queue.dismissNotice();
  assert.equal(await queue.notice.count(), 0);
  // Thumbnails are drawn in the background from the added files, once per content.
  await lib.thumbnailPictures(4);
  await app.screenshot('22-library');
  assert.equal(await lib.rows.count(), 4);

  // The same files again are recognised by their hash, not uploaded twice.
  await queue.clearFinished();
  await lib.fileInput.setInputFiles(GOOD.slice(0, 2));
  await queue.alreadyInProject(2, 15_000);
  assert.equal(await lib.rows.count(), 4);
  // Counted apart from the uploads: not sent again.
  await expect(app.page.getByTestId('upload-done')).hasText('0 uploaded · 2 already in the project');
});

test("a model keeps its file's name, punctuation and all, and a long one stays within its row", async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const lib = libraryPage(app.page);
  const dir = await mkdtemp(join(tmpdir(), 'named-'));
  const names = ["Knob (matte, 20% infill) — Ana's #2.stl", `gearbox_housing_${'left_half_revision_C_'.repeat(3)}FINAL.stl`];
  for (const [k, name] of names.entries()) await writeFile(join(dir, name), await readFile(join(corpus, 'stl', k ? 'Moon-binary.stl' : 'Cube-binary.stl')));
  await openLibrary(app);
  await app.page.setViewportSize({ width: 760, height: 600 });
  await lib.fileInput.setInputFiles(names.map((name) => join(dir, name)));
  await lib.lists(2, 30_000);
  const shown = await lib.names.evaluateAll((buttons) => buttons.map((b) => ({ text: b.textContent, title: b.getAttribute('title'), lines: Math.round(b.getBoundingClientRect().height / parseFloat(getComputedStyle(b).lineHeight)) })));
  assert.deepEqual(shown.map((s) => s.text).sort(), names.map((name) => name.replace(/\.stl$/, '')).sort());
  for (const name of shown) {
    assert.equal(name.title, name.text, 'the whole name is in the tooltip');
    assert.ok(name.lines <= 2, `${name.text} takes ${name.lines} lines`);
  }
  const table = await lib.table.boundingBox();
  const view = await lib.view.boundingBox();
  assert.ok(table && view && table.x + table.width <= view.x + view.width, 'the table fits the window');
  await app.screenshot('23-library-long-names');
});

test('a file that passes the upload check but cannot be read is marked in the list and explained in its details', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const lib = libraryPage(app.page);
  const model = modelDetail(app.page);
  const cube = Buffer.from(await readFile(join(corpus, 'stl', 'Cube-binary.stl')));
  cube.writeFloatLE(Number.NaN, 84 + 12);
  const file = join(await mkdtemp(join(tmpdir(), 'nan-model-')), 'nan-corner.stl');
  await writeFile(file, cube);
  await openLibrary(app);
  await lib.fileInput.setInputFiles([file]);
  await expect(lib.unreadableThumb).visible();
  assert.match((await lib.thumbs.getAttribute('title')) ?? '', /not a finite number/);
  await lib.open();
  await expect(model.unreadable).hasText('could not be read');
  await expect(model.error).hasText('PrintDesk cannot read this file');
  await expect(model.error).hasText('not a finite number');
  await app.screenshot('model-unreadable');
  // Quoting or ordering it is still possible, but not the obvious step, and the order says why.
  assert.doesNotMatch((await model.quote.getAttribute('class')) ?? '', /primary/);
  await model.order();
  await expect(orderForm(app.page).lineUnreadable).hasText('PrintDesk cannot read this file');
});

test('the library from the keyboard: arrows between rows and within a row, Space selects, and the table is one Tab stop', async (t) => {
  const { app, lib } = await appOnLibrary(t);
  await lib.fileInput.setInputFiles(GOOD);
  await lib.lists(4, 30_000);
  const page = app.page;
  const focused = () => page.evaluate(() => {
    const row = document.activeElement?.closest('[data-testid="model-row"]');
    const rows = [...document.querySelectorAll('[data-testid="model-row"]')];
    return { row: row ? rows.indexOf(row) : -1, what: document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.getAttribute('type') };
  });
  await page.getByTestId('model-name').first().focus();
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await focused(), { row: 1, what: 'model-name' });
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await focused(), { row: 1, what: 'checkbox' });
  await page.keyboard.press('Space');
  await expect(lib.selectionBar).visible();
  await page.keyboard.press('End');
  assert.deepEqual(await focused(), { row: 3, what: 'checkbox' });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Home');
  assert.deepEqual(await focused(), { row: 0, what: 'model-name' });
  // One stop: Tab from the row's name leaves the table, rather than going to the next row's box.
  await page.keyboard.press('Tab');
  assert.equal((await focused()).row, -1);
  // And back in, at the row last moved to.
  await page.keyboard.press('Shift+Tab');
  assert.deepEqual(await focused(), { row: 0, what: 'model-name' });
});

test('folders organise models, search narrows the list, a selection goes to a quote', async (t) => {
  const { app, lib } = await appOnLibrary(t);
  await lib.fileInput.setInputFiles(GOOD);
  await lib.lists(4, 30_000);
  await lib.newFolder.click();
  await lib.folderName.fill('Moons');
  await lib.saveFolder.click();
  await expect(lib.folders.first()).hasText('Moons');
  await lib.search.fill('moon');
  await lib.lists(1);
  await lib.checkbox().check();
  await expect(lib.selectionBar).visible();
  // A search that hides the selected model drops it from the selection: nothing is moved or deleted unseen.
  // On a slow service, the rows shown while a search is answered are marked as the last listing's.
  app.booted.sandbox?.faults.set({ kind: 'latency', path: '/Model3D/GetModels', ms: 1_500 });
  await lib.search.fill('star');
  await expect(app.page.getByTestId('library-listing')).visible();
  await app.screenshot('library-search-listing');
  app.booted.sandbox?.faults.clear();
  await expect(lib.selectionBar).hidden();
  // Nothing matches: said with the words, and one click from the whole list again, the search box in hand.
  await expect(app.page.getByTestId('library-empty')).hasText('No model matches “star”');
  await app.screenshot('library-search-none');
  await app.page.getByTestId('clear-search').click();
  await lib.lists(4);
  await app.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'library-search', null, { timeout: 5_000 });
  await lib.search.fill('moon');
  await lib.lists(1);
  await lib.checkbox().check();
  await expect(lib.selectionBar).visible();
  const folderId = await lib.moveChoices.nth(2).getAttribute('value');
  await lib.moveSelected.selectOption(folderId ?? '');
  await lib.search.fill('');
  await lib.folders.first().click();
  await lib.lists(1);
  await lib.checkbox().check();
  await lib.quoteSelected.click();
  await expect(quotePage(app.page).view).visible();
  assert.equal(await quotePage(app.page).modelLines.count(), 1);
});

test('models dragged onto a folder move there, a selection all together, and out again onto "Not in a folder"', async (t) => {
  const { app, lib, sandbox, project } = await appWithSandbox(t);
  for (const name of ['Bracket left', 'Bracket right', 'Knob']) await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'), { name });
  await sandbox.operator.createFolder(project.projectId, 'Brackets');
  await openLibrary(app);
  await lib.lists(3);
  await lib.checkbox('Bracket left').check();
  await lib.checkbox('Bracket right').check();
  // Slowed, so the move is seen under way.
  sandbox.faults.set({ kind: 'latency', path: '/Model3D/UpdateModel', ms: 400 });
  await lib.row('Bracket right').dragTo(lib.folders.first());
  await expect(lib.selectionBusy).hasText('Moving 1 of 2…');
  await expect(lib.moved).hasText('2 models moved to “Brackets”.');
  sandbox.faults.set([]);
  await expect(lib.selectionBar).hidden();
  assert.equal(await uploadQueue(app.page).items.count(), 0, 'a drag inside the app is not taken for files to upload');
  await app.screenshot('library-moved');

  await lib.folders.first().click();
  // Another folder shown: the news of the move was of the last view, and goes.
  await expect(lib.moved).hidden();
  await lib.lists(2);
  await lib.row('Bracket left').dragTo(lib.unfiled);
  await expect(lib.moved).hasText('1 model taken out of its folder.');
  await lib.lists(1);
  const models = await sandbox.operator.listModels(project.projectId);
  assert.deepEqual(models.filter((m) => m.folderId).map((m) => m.name), ['Bracket right']);
});

test('a move that the service stops part-way keeps the models not moved selected, to move them again', async (t) => {
  const { app, lib, sandbox, project } = await appWithSandbox(t);
  for (const name of ['Part A', 'Part B', 'Part C']) await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'), { name });
  const folder = await sandbox.operator.createFolder(project.projectId, 'Done');
  await openLibrary(app);
  await lib.lists(3);
  await app.page.keyboard.press('Control+A');
  await expect(lib.selectionBar).hasText('3 selected');
  // The second move meets a rate limit too long to wait out unasked.
  sandbox.faults.set({ kind: 'rate-limit', path: '/Model3D/UpdateModel', skip: 1, count: 1, retryAfterSeconds: 120 });
  await lib.moveSelected.selectOption(folder.folderId);
  await expect(lib.actionError).visible();
  await expect(lib.selectionBar).hasText('2 selected');
  await expect(lib.stopped).hasText('Stopped after 1 of 3: the 2 models not moved are still selected');
  await app.screenshot('library-move-stopped');
  assert.equal(await lib.moveSelected.evaluate((menu: HTMLSelectElement) => menu.selectedIndex), 0, 'the menu is back at "Move to…"');
  assert.equal((await sandbox.operator.listModels(project.projectId)).filter((m) => m.folderId).length, 1);

  await lib.moveSelected.selectOption(folder.folderId);
  await expect(lib.moved).hasText('2 models moved to “Done”.');
  assert.equal((await sandbox.operator.listModels(project.projectId)).filter((m) => m.folderId).length, 3);
});

test('the library answers as a file manager does: click and Ctrl+click, shift-click for a range, Ctrl+A, Escape, Delete, double click', async (t) => {
  const { app, lib, dialog, sandbox, project } = await appWithSandbox(t);
  for (const name of ['Part A', 'Part B', 'Part C', 'Part D']) await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'), { name });
  await openLibrary(app);
  await lib.lists(4);
  const box = (name: string) => lib.checkbox(name);
  await lib.rows.first().click({ position: { x: 300, y: 5 } });
  await app.page.keyboard.press('Control+A');
  await expect(lib.selectionBar).hasText('4 selected');
  await app.page.keyboard.press('Escape');
  await expect(lib.selectionBar).hidden();
  // A click on a row selects it alone; with Ctrl it is added.
  await lib.row('Part B').click({ position: { x: 300, y: 5 } });
  await lib.row('Part C').click({ position: { x: 300, y: 5 } });
  await expect(lib.selectionBar).hasText('1 selected');
  await lib.row('Part D').click({ position: { x: 300, y: 5 }, modifiers: ['Control'] });
  await expect(lib.selectionBar).hasText('2 selected');
  await app.screenshot('library-selection');
  assert.equal(await box('Part C').isChecked(), true);
  assert.equal(await box('Part B').isChecked(), false);
  // Escape from the selection bar itself: the bar goes, and the focus lands in the list, not on the page.
  await lib.clearSelection.focus();
  await app.page.keyboard.press('Escape');
  await expect(lib.selectionBar).hidden();
  assert.equal(await lib.focusInRow(), true);

  // Newest first: D, C, B, A. From D, a shift-click on B takes C along; A stays out.
  await box('Part D').check();
  await box('Part B').click({ modifiers: ['Shift'] });
  await expect(lib.selectionBar).hasText('3 selected');
  assert.equal(await box('Part A').isChecked(), false);
  // Typing in the search is typing: Ctrl+A there selects its text, not the models.
  await lib.search.focus();
  await app.page.keyboard.press('Control+A');
  await expect(lib.selectionBar).hasText('3 selected');

  await box('Part C').focus();
  await app.page.keyboard.press('Delete');
  await expect(dialog.view).hasText('Delete these 3 models?');
  await dialog.yes();
  await lib.lists(1);
  await expect(lib.moved).hasText('3 models deleted.');
  await expect(lib.names.first()).hasText('Part A');
  assert.deepEqual((await sandbox.operator.listModels(project.projectId)).map((m) => m.name), ['Part A']);
  // A double click opens the model.
  await lib.rows.first().dblclick({ position: { x: 300, y: 5 } });
  await expect(modelDetail(app.page).view).visible();
});

test("a model's page renames it, moves it to a folder and deletes it", async (t) => {
  const { app, lib, dialog, sandbox, project } = await appWithSandbox(t);
  const model = await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'));
  const folder = await sandbox.operator.createFolder(project.projectId, 'Moons');
  await openLibrary(app);
  await lib.open();
  const detail = modelDetail(app.page);
  await expect(detail.view).visible();
  const page = app.page;
  await detail.renameTo('Crescent moon, 3 mm');
  await expect(detail.title).hasText('Crescent moon, 3 mm');
  await detail.folder.selectOption(folder.folderId);
  await expect(detail.serviceRecord).visible();
  await app.screenshot('model-actions');
  let stored = (await sandbox.operator.listModels(project.projectId)).find((m) => m.modelId === model.modelId);
  for (let i = 0; i < 50 && stored?.folderId !== folder.folderId; i++) {
    await page.waitForTimeout(100);
    stored = (await sandbox.operator.listModels(project.projectId)).find((m) => m.modelId === model.modelId);
  }
  assert.equal(stored?.name, 'Crescent moon, 3 mm');
  assert.equal(stored?.folderId, folder.folderId);

  // An empty name is refused with the reason, and nothing changes.
  await detail.renameTo('   ');
  await expect(detail.actionError).hasText('Enter a name');
  assert.doesNotMatch((await detail.actionError.textContent()) ?? '', /renameModel|✖/, 'said as to a person, not as the contract check');
  await detail.nameField.press('Escape');

  await detail.delete.click();
  await expect(dialog.view).hasText('Deleting Crescent moon, 3 mm removes it');
  await dialog.yes();
  await expect(lib.view).visible();
  await expect(lib.empty).visible();
  assert.equal((await sandbox.operator.listModels(project.projectId)).length, 0);
});

test('a project of hundreds of models lists them page by page as the list is scrolled, and a new sort starts again', async (t) => {
  const { app, lib, sandbox, project } = await appWithSandbox(t);
  for (let n = 1; n <= 450; n++) {
    await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'), { name: `Part ${String(n).padStart(3, '0')}` });
  }
  await openLibrary(app);
  await expect(lib.count).hasText('200 of 450 models shown');
  assert.equal(await lib.rows.count(), 200);
  assert.equal(await lib.names.first().textContent(), 'Part 450', 'newest first');
  await lib.more.scrollIntoViewIfNeeded();
  await expect(lib.count).hasText('400 of 450 models shown');
  await app.screenshot('library-many');
  await lib.more.scrollIntoViewIfNeeded();
  await expect(lib.more).hidden();
  assert.equal((await lib.count.textContent())?.trim(), '450 models');
  const names = await lib.names.allTextContents();
  assert.equal(new Set(names).size, 450, 'no model is listed twice or left out');

  await lib.sortBy('name').click();
  await expect(lib.count).hasText('200 of 450 models shown');
  assert.equal(await lib.names.first().textContent(), 'Part 001');
  // All shown selected, the rest of the listing is one click away.
  await app.page.keyboard.press('Control+A');
  await expect(lib.selectionBar).hasText('200 selected');
  await app.screenshot('library-select-entire');
  await lib.selectEntire();
  await expect(lib.selectionBar).hasText('450 selected');
  assert.equal(await lib.rows.count(), 450);
  assert.equal(await lib.quoteSelected.isDisabled(), true, 'a quote holds at most 100 models; 450 can be moved or deleted');
  await app.page.keyboard.press('Escape');
  await lib.search.fill('Part 44');
  await expect(lib.count).hasText('10 models');
});

test('a model opens with its service record, measured facts and a drawn preview', async (t) => {
  const { app, lib } = await appOnLibrary(t);
  await lib.fileInput.setInputFiles([join(corpus, '3mf', 'cube_gears.3mf')]);
  await lib.lists(1, 30_000);
  await lib.open();
  const model = modelDetail(app.page);
  await expect(model.serviceRecord).visible();
  await expect(model.localFacts).hasText('Triangles');
  await expect(model.dimensions).hasText('mm');
  // Drawn by a worker that may still be starting when the size is known: waited for, not timed.
  await pixelsUntil(model.canvas, (s) => s.distinct > 20, 'a shaded model');
  await app.screenshot('23-model-detail');
});

test('a model uploaded from elsewhere is downloaded for its preview and facts', async (t) => {
  const { app, lib, sandbox, project } = await appWithSandbox(t);
  await sandbox.operator.addModel(project.projectId, join(corpus, 'obj', 'suzanne.obj'));
  await openLibrary(app);
  await lib.lists(1, 30_000);
  // Its library thumbnail is drawn from the service's copy once the row is on screen.
  await lib.thumbnailDrawn();
  await lib.open();
  const model = modelDetail(app.page);
  await expect(model.localFacts).hasText('968');
  await pixelsUntil(model.canvas, (s) => s.distinct > 20, 'the downloaded model');
});

test('a large model shows as soon as it is measured, and says whether it is closed after', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const lib = libraryPage(app.page);
  const model = modelDetail(app.page);
  const dir = await mkdtemp(join(tmpdir(), 'large-model-'));
  const file = join(dir, 'torus-2m.stl');
  await writeFile(file, binaryStl(torusWith(2_000_000)));
  await openLibrary(app);
  await lib.fileInput.setInputFiles([file]);
  await lib.lists(1, 60_000);
  // Records, as the page changes, whether the picture and its size were ever shown while holes and
  // shells were still being counted (a moment too short to catch by polling on a fast machine).
  await app.page.evaluate(() => {
    const seen = ((window as unknown as { seen: string[] }).seen = [] as string[]);
    new MutationObserver(() => {
      const pending = document.querySelector('[data-testid="topology-pending"]');
      const dimensions = document.querySelector('[data-testid="viewer-dimensions"]')?.textContent ?? '';
      if (pending && dimensions.includes('mm') && document.querySelector('[data-testid="viewer-checking"]')) seen.push('measured, checking');
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await lib.open();
  // Not waited for on screen: on a fast machine the check is over before a poll would see it.
  await model.localFacts.waitFor({ timeout: 60_000 });
  await expect(model.localFacts).hasText('Yes');
  await model.checking.waitFor({ state: 'detached' });
  // Software rendering (as here) draws 2M triangles in seconds a frame: the viewer draws its proxy and says so.
  const simplified = model.simplified;
  await expect(simplified).hasText('of 1,999,396 triangles');
  await pixelsUntil(model.canvas, (s) => s.distinct > 12, 'the simplified torus');
  await app.screenshot('24-model-large');
  const seen = await app.page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  assert.ok(seen.includes('measured, checking'), 'the model and its size showed before its topology was known');
  await model.drawEveryTriangle();
  await simplified.waitFor({ state: 'detached', timeout: 30_000 });
  await pixelsUntil(model.canvas, (s) => s.distinct > 12, 'every triangle of the torus');
  // Its library row has a thumbnail, drawn from a proxy of the model rather than its 2M triangles.
  await model.backToLibrary.click();
  await lib.thumbnailDrawn();
});

test('opening and closing a preview 100 times leaks neither WebGL contexts, nor GPU geometries in the stage kept between previews, nor memory', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const lib = libraryPage(app.page);
  const warnings: string[] = [];
  app.page.on('console', (message) => {
    if (/too many active webgl contexts|context lost/i.test(message.text())) warnings.push(message.text());
  });
  await openLibrary(app);
  await lib.fileInput.setInputFiles([join(corpus, 'stl', 'Moon-binary.stl')]);
  await lib.lists(1, 30_000);
  const heap = () => app.page.evaluate(() => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize);
  const detail = modelDetail(app.page);
  let settledGeometries: number | null = null;
  const cycle = async () => {
    await lib.open();
    await detail.previewReady();
    // Checked (open edges drawn, if any): what the preview holds on the GPU is then the same at every opening.
    await detail.topologyPending.waitFor({ state: 'detached' });
    if (settledGeometries !== null) await detail.gpuGeometriesAre(settledGeometries);
    await detail.backToLibrary.click();
    await lib.rows.first().waitFor();
  };
  for (let i = 0; i < 10; i++) await cycle();
  // The stage is kept from one preview to the next (kept-stage.ts): each must free what the last one showed.
  await lib.open();
  await detail.previewReady();
  await detail.topologyPending.waitFor({ state: 'detached' });
  await app.page.waitForTimeout(500);
  settledGeometries = await detail.gpuGeometries();
  assert.ok(settledGeometries !== null && settledGeometries > 0, 'the stage tells what it holds on the GPU');
  assert.equal(await detail.drawnIn(), 'worker');
  await detail.backToLibrary.click();
  await lib.rows.first().waitFor();
  const client = await app.page.context().newCDPSession(app.page);
  await client.send('HeapProfiler.collectGarbage');
  const before = await heap();
  for (let i = 0; i < 90; i++) await cycle();
  await client.send('HeapProfiler.collectGarbage');
  const grown = (await heap()) - before;
  assert.deepEqual(warnings, [], 'no WebGL context may be left behind');
  assert.ok(grown < 8 * 1024 * 1024, `heap grew by ${(grown / 1048576).toFixed(1)} MiB over 90 previews`);
});

test('files dropped onto the window are uploaded; other dropped files are left out, and the user is told', async (t) => {
  const { app, lib } = await appOnLibrary(t);
  const star = (await readFile(join(corpus, 'stl', 'Star-ascii.stl'))).toString('base64');
  await lib.dropFiles([
    { name: 'Star-ascii.stl', base64: star },
    { name: 'notes.txt', base64: Buffer.from('hello').toString('base64') },
  ]);
  await lib.lists(1, 30_000);
  assert.equal(await lib.names.first().textContent(), 'Star-ascii');
  await expect(uploadQueue(app.page).notice).hasText('notes.txt is not STL, OBJ or 3MF');
  // The upload is through and listed: "1 added to the upload queue" went with it.
  await uploadQueue(app.page).noticeDropped('added');
});

test('files the OS hands over ("Open with", a double click) are uploaded only once the user says so, even if handed over while signed out', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const lib = libraryPage(app.page);
  const [moon, suzanne, star] = [join(corpus, 'stl', 'Moon-binary.stl'), join(corpus, 'obj', 'suzanne.obj'), join(corpus, 'stl', 'Star-ascii.stl')];
  // Before signing in, there is no project to put them in: the host keeps them until there is.
  app.booted.host.openFiles([moon]);
  await signInPage(app.page).dismissVaultNotice();
  await signInPage(app.page).signInWithDemo();
  await projectsPage(app.page).open();
  // The project opens on its library, with the question.
  await expect(lib.view).visible();
  const dialog = confirmDialog(app.page);
  await expect(dialog.view).hasText('Upload Moon-binary.stl?');
  // Another hand-over while the question is open joins it rather than replacing it.
  app.booted.host.openFiles([suzanne]);
  await expect(dialog.view).hasText('Upload 2 files?');
  await expect(dialog.view).hasText('Moon-binary.stl, suzanne.obj go to the top folder');
  await app.screenshot('library-open-with');
  await dialog.no();
  await app.page.waitForTimeout(500);
  assert.equal(await lib.rows.count(), 0, 'nothing was sent');
  assert.equal(await uploadQueue(app.page).items.count(), 0);
  app.booted.host.openFiles([moon, star]);
  await expect(dialog.view).hasText('Upload 2 files?');
  await dialog.yes();
  await lib.lists(2, 30_000);
  assert.deepEqual((await lib.names.allTextContents()).sort(), ['Moon-binary', 'Star-ascii']);
});

test('access to the open project taken away: its models go, the library says why, and the picker no longer offers it', async (t) => {
  const { app, lib, sandbox, project } = await appWithSandbox(t);
  await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'));
  const other = await sandbox.operator.createProject('Other parts', { assign: DEMO_EMAIL });
  await openProjectLibrary(app, project);

  await sandbox.operator.unassign(project.projectId, DEMO_EMAIL);
  await workspace(app.page).nav('overview');
  await workspace(app.page).nav('library');
  await expect(lib.noAccess).hasText('can no longer use');
  assert.equal(await lib.rows.count(), 0, 'the models are not shown any more');
  assert.equal(await lib.uploadFiles.isDisabled(), true, 'nor can files be uploaded to it');
  await app.screenshot('library-no-access');
  // The overview, checked when the project was opened, no longer says it was fine.
  await workspace(app.page).nav('overview');
  await expect(projectHome(app.page).accessLost).hasText('Taken away since it was opened');
  await workspace(app.page).nav('library');
  await lib.chooseOtherProject();
  await expect(projectsPage(app.page).items.filter({ hasText: other.name })).visible();
  // The picker shows the list it had until the service's answer lands; then the lost project is gone.
  await expect(projectsPage(app.page).items.filter({ hasText: project.name })).hidden();
});

test('access taken away while the library is open: the first refused upload says so, without leaving the view', async (t) => {
  const { app, lib, sandbox, project } = await appWithSandbox(t);
  await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'));
  await openProjectLibrary(app, project);

  await sandbox.operator.unassign(project.projectId, DEMO_EMAIL);
  await lib.fileInput.setInputFiles([join(corpus, 'stl', 'Star-binary.stl')]);
  await expect(lib.noAccess).hasText('can no longer use');
  assert.equal(await lib.rows.count(), 0);
  await workspace(app.page).nav('overview');
  await expect(projectHome(app.page).accessLost).hasText('Taken away since it was opened');
});

test('an upload that cannot reach the service says so in its row, the app goes offline only if the service does, and Retry now sends it once it is back', async (t) => {
  const { app, lib } = await appOnLibrary(t);
  const queue = uploadQueue(app.page);
  const shell = workspace(app.page);
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  // Only uploads cut off (a proxy dropping large bodies): the service answers the rest, so the app stays online.
  sandbox.faults.set({ kind: 'reset-before', path: '/Model3D/UploadModel' });
  await lib.fileInput.setInputFiles([join(corpus, 'stl', 'Moon-binary.stl')]);
  await expect(queue.retrying).hasText('Waiting for the service · 0 B of 5.7 KB received');
  await queue.retryNow.click();
  // At least the try asked for; under load the queue's own backoff may have tried again since.
  await expect(queue.retrying).hasText(/\b([2-9]|\d{2,}) tries/);
  assert.equal(await shell.offlineBanner.count(), 0);
  // The whole service out of reach: the app says so once, for everything.
  sandbox.faults.set({ kind: 'reset-before', path: '/' });
  await queue.retryNow.click();
  // The client tries a reset connection again itself before it says the service is out of reach: on a
  // loaded machine that has taken longer than the usual wait.
  await shell.offlineBanner.waitFor({ state: 'visible', timeout: 30_000 });
  await app.screenshot('upload-waiting');
  sandbox.faults.clear();
  await queue.retryNow.dispatchEvent('click');
  await lib.lists(1, 30_000);
  assert.equal((await sandbox.operator.listModels((await sandbox.operator.listProjects())[0].projectId)).length, 1);
  // Done: the finished row folds into the header, one click away.
  await expect(queue.toggleFinished).hasText('Show');
  assert.equal(await queue.items.first().isVisible(), false);
  await queue.toggleFinished.click();
  await expect(queue.items.first()).visible();
});

test('the keyboard picks up where it was: back from a model on its row, after a new folder on that folder', async (t) => {
  const { app, lib, sandbox, project } = await appWithSandbox(t);
  for (const name of ['Moon-binary', 'Star-binary']) await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', `${name}.stl`));
  await openProjectLibrary(app, project);
  await expect(lib.rows.nth(1)).visible();

  await lib.names.filter({ hasText: 'Star-binary' }).focus();
  await app.page.keyboard.press('Enter');
  await modelDetail(app.page).backToLibrary.press('Enter');
  await expect(lib.rows.nth(1)).visible();
  await lib.focusOn('model');
  assert.match((await lib.focused()) ?? '', /Star-binary/);

  await lib.newFolder.click();
  await lib.folderName.fill('Brackets');
  await app.page.keyboard.press('Enter');
  await lib.focusOn('folder');
  assert.match((await lib.focused()) ?? '', /Brackets/);
});
