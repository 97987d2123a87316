// A large model opens while the window keeps answering: the preview draws in a worker (software WebGL
// here, the slow case), its proxy first and every triangle after, in parts; a text field takes every key
// typed meanwhile, and the preview turns and fits. Where the browser cannot hand a canvas to
// a worker, the page draws the preview itself, as it always did.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { binaryStl, torusWith } from '../../scripts/generate-models.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { pixelsUntil, sameCover, samplePixels, settledPixels } from './canvas-pixels.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp } from './harness.ts';
import { libraryWith } from './library-with.ts';
import { modelDetail } from './pages/model-detail.ts';
import { framesDrawn, turnPreview, typeUntil, withoutOffscreenCanvas } from './preview-input.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

/** Records, as the page changes, whether the simplified copy was on screen while every triangle loaded. */
async function watchLoading(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen = ((window as unknown as { seen: Set<string> }).seen = new Set<string>());
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="viewer-loading-detail"]')) seen.add('loading');
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

test('a 2M-triangle model opens and turns while a text field takes every key, and the preview answers to orbit and Fit as it loads', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const page = app.page;
  const file = join(await mkdtemp(join(tmpdir(), 'large-')), 'torus-2m.stl');
  await writeFile(file, binaryStl(torusWith(2_000_000)));
  const lib = await libraryWith(page, file, 120_000);
  await watchLoading(page);
  await lib.open();
  const model = modelDetail(page);
  // The model is renamed while it opens: the field holds every key, in order, up to the first picture…
  await model.rename.click();
  const field = model.nameField;
  const onScreen = model.isPreviewReady;
  const first = await typeUntil(page, field, onScreen);
  assert.equal(await field.inputValue(), first);
  assert.equal(await model.drawnIn(), 'worker');
  // The host sent its first picture, a few megabytes ahead of the file's hundred; drawn if it came first.
  // (Prepared after the upload, it can come after the file on a busy machine: it is waited for.)
  await page.waitForFunction(() => performance.getEntriesByName('preview:picture').length > 0, null, { timeout: 120_000 }).catch(() => undefined);
  const arrivals = await model.arrivals();
  assert.ok(arrivals.picture !== undefined, 'the host sent a first picture');
  if (arrivals.file === undefined || arrivals.picture < arrivals.file) assert.equal(await model.firstPictureFrom(), 'host');
  await pixelsUntil(model.canvas, (s) => s.blueShades >= 3, 'the torus');
  // The view as it stands once the tool row is over it, the sharp frame drawn.
  await model.fitButton.waitFor();
  const atRest = await settledPixels(model.canvas);
  // …turned as every triangle loads (or just after, on a fast machine): the picture moves and frames are drawn…
  const before = await framesDrawn(page);
  await turnPreview(page, model.canvas, 1_500);
  assert.ok((await framesDrawn(page)) > before, 'frames were drawn while turning');
  assert.notDeepEqual(await samplePixels(model.canvas), atRest, 'the torus turned');
  // …fitted again as it first stood…
  await model.fit();
  await pixelsUntil(model.canvas, (s) => sameCover(s, atRest), 'the torus fitted again as it first stood');
  // …and typed into again until every triangle is in: every key held.
  const typed = await typeUntil(page, field, model.isFullyOpen, 8, { clearFirst: true });
  assert.equal(await field.inputValue(), typed);
  const seen = await page.evaluate(() => [...(window as unknown as { seen: Set<string> }).seen]);
  assert.ok(seen.includes('loading'), 'the simplified copy was shown while every triangle loaded');
  await page.keyboard.press('Escape');

  // Loaded: under software rendering every triangle is too slow to turn, and it says so.
  await expect(model.simplified).hasText('of 1,999,396 triangles drawn');
  await model.topologyPending.waitFor({ state: 'detached', timeout: 120_000 });
  await app.screenshot('model-large-loaded');
});

test('where a canvas cannot go to a worker, the page draws the preview itself, turns and fits it, and draws thumbnails', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  await withoutOffscreenCanvas(app.page);
  const page = app.page;
  const lib = await libraryWith(page, join(corpus, 'stl', 'HalfDonut-binary.stl'));
  // The library's thumbnail, drawn on the page.
  await lib.thumbnailDrawn();
  await lib.open();
  const model = modelDetail(page);
  await model.previewReady(30_000);
  assert.equal(await model.drawnIn(), 'page');
  await pixelsUntil(model.canvas, (s) => s.blueShades >= 3, 'the half donut');
  await model.fitButton.waitFor();
  const atRest = await settledPixels(model.canvas);
  await turnPreview(page, model.canvas, 800);
  await pixelsUntil(model.canvas, (s) => !sameCover(s, atRest), 'the half donut turned');
  await model.fit();
  await pixelsUntil(model.canvas, (s) => sameCover(s, atRest), 'the half donut fitted again');
  await app.screenshot('model-drawn-on-page');
});
