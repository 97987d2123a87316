// The preview as a buyer reads it: a 3MF's own colours, and the holes of an open mesh drawn in red and
// switched off on request. Pixels are read back from the WebGL canvas (software rendering, see harness.ts).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { pixelsUntil } from './canvas-pixels.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp, type AppUnderTest } from './harness.ts';
import { libraryWith } from './library-with.ts';
import { libraryPage } from './pages/library.ts';
import { modelDetail } from './pages/model-detail.ts';
import { workspace } from './pages/workspace.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { binaryStl } from '../../scripts/generate-models.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

async function uploadModel(app: AppUnderTest, file: string): Promise<ReturnType<typeof libraryPage>> {
  return libraryWith(app.page, file);
}

/** The model's page, opened once the file is uploaded and its size is shown. */
async function openModel(app: AppUnderTest, file: string): Promise<ReturnType<typeof modelDetail>> {
  const lib = await uploadModel(app, file);
  await lib.open();
  const model = modelDetail(app.page);
  await expect(model.dimensions).hasText('mm');
  return model;
}

/** A closed box of `x` × `y` × `z` mm as a binary STL file, with its corner at the origin. */
async function boxFile(name: string, x: number, y: number, z: number): Promise<string> {
  const corners = [[0, 0, 0], [x, 0, 0], [x, y, 0], [0, y, 0], [0, 0, z], [x, 0, z], [x, y, z], [0, y, z]];
  const faces = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 1, 2, 6, 1, 6, 5, 2, 3, 7, 2, 7, 6, 3, 0, 4, 3, 4, 7];
  const file = join(await mkdtemp(join(tmpdir(), 'box-')), name);
  await writeFile(file, binaryStl({ vertices: new Float32Array(corners.flat()), triangles: new Uint32Array(faces) }));
  return file;
}

/** The library row's thumbnail once it is drawn. */
async function thumbnailSource(app: AppUnderTest): Promise<string | null> {
  const image = libraryPage(app.page).thumbnailImages;
  await image.waitFor({ timeout: 30_000 });
  return image.getAttribute('src');
}

test('a colour 3MF is drawn in its own colours, not the default blue, and as a wireframe on request', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const model = await openModel(app, join(corpus, '3mf', 'rhombicuboctahedron_color.3mf'));
  // Its faces are orange, yellow, pink, green and navy: warm pixels appear only if the colours are used.
  const solid = await pixelsUntil(model.canvas, (s) => s.warm > 200, 'the model\'s warm colours');
  assert.ok(solid.distinct > 20, `a shaded model shows many colours (saw ${solid.distinct})`);
  await app.screenshot('25-model-colours');
  // Wireframe leaves only the triangles' edges coloured.
  await model.wireframe.check();
  await pixelsUntil(model.canvas, (s) => s.warm > 0 && s.warm < solid.warm / 3, 'the model as a wireframe');
  await model.wireframe.uncheck();
  await pixelsUntil(model.canvas, (s) => s.warm > solid.warm * 0.9, 'the solid model again');
});

test('an open mesh says how many open edges it has, draws them in red, and hides them on request', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const lib = await uploadModel(app, join(corpus, 'obj', 'stanford-bunny.obj'));
  const standing = await thumbnailSource(app);
  await lib.open();
  const model = modelDetail(app.page);
  await expect(model.dimensions).hasText('mm');
  const toggle = model.openEdges;
  await expect(toggle).visible();
  // 223 open edges: the holes in the bunny's base, as `printdesk inspect` and the corpus test count them.
  assert.equal((await model.openEdgesLabel.textContent())?.trim(), 'Open edges (223)');
  await expect(model.localFacts).hasText('No — 223 open edges');
  // Drawn in metres, so tiny as read: its volume keeps its digits instead of showing "0 cm³", and the
  // plate's grid is made as fine as the model is small.
  await expect(model.localFacts).hasText('0.000724 mm³ (not closed)');
  await expect(model.grid).hasText('grid 0.01 mm');
  // An OBJ stands Y-up: the bunny sits on its base, holes underneath. Turned Z-up, it lies on its back and
  // shows them to the camera.
  const up = model.up;
  assert.equal(await up.inputValue(), 'y');
  // The size reads width × depth × height as the model stands, over the preview and in the facts alike:
  // turned from Y-up to Z-up, what was its height becomes its depth.
  const numbers = (text: string | null) => (text ?? '').match(/[\d.]+(?= [×m])/g) ?? [];
  const factSize = model.factDimensions;
  const [w, d, h] = numbers(await factSize.textContent());
  assert.deepEqual(numbers(await model.dimensions.textContent()).slice(0, 3), [w, d, h]);
  await up.selectOption('z');
  await model.dimensionsRead(`${w} × ${h} × ${d} mm`);
  await expect(factSize).hasText(`${w} × ${h} × ${d} mm`);
  const shown = await pixelsUntil(model.canvas, (s) => s.highlight > 0, 'the open edges in red');
  await app.screenshot('26-model-open-edges');
  await toggle.uncheck();
  const hidden = await pixelsUntil(model.canvas, (s) => s.highlight === 0, 'the model without its open edges');
  assert.ok(hidden.distinct > 20, 'the model itself is still drawn');
  assert.ok(shown.highlight > hidden.highlight);
  // The library's thumbnail is drawn again the way up chosen, and the choice is kept for this file.
  await model.backToLibrary.click();
  await lib.thumbnailRedrawn(standing, 10_000);
  await lib.open();
  await expect(model.dimensions).hasText('mm');
  assert.equal(await up.inputValue(), 'z');
});

test('a model with absurd coordinates is still drawn shaded (not black), with its real size beside it', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  // Every coordinate of the corpus cube times 1e29: a file written in a wrong unit, or junk.
  const cube = Buffer.from(await readFile(join(corpus, 'stl', 'Cube-binary.stl')));
  for (let facet = 0; facet < cube.readUInt32LE(80); facet++) {
    for (let k = 0; k < 9; k++) {
      const at = 84 + facet * 50 + 12 + k * 4;
      cube.writeFloatLE(cube.readFloatLE(at) * 1e29, at);
    }
  }
  const file = join(await mkdtemp(join(tmpdir(), 'huge-model-')), 'huge-cube.stl');
  await writeFile(file, cube);
  const model = await openModel(app, file);
  await expect(model.dimensions).hasText('e+29');
  // Lit, each face of the cube seen is a shade of its blue; drawn black, none would be.
  const drawn = await pixelsUntil(model.canvas, (s) => s.blueShades >= 3, 'the cube, shaded');
  assert.ok(drawn.blueShades >= 3, `a shaded cube shows a shade a face (saw ${drawn.blueShades})`);
});

test('the preview is reached and turned with the keyboard, and in a narrow window the facts go under it', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const model = await openModel(app, join(corpus, 'stl', 'Cube-binary.stl'));
  await pixelsUntil(model.canvas, (s) => s.blueShades >= 3, 'the cube');
  assert.match((await model.canvas.getAttribute('aria-label')) ?? '', /3D preview \(.+mm\)\. .*arrow keys/);
  const before = await model.canvas.screenshot();
  await model.canvas.focus();
  for (const key of ['+', '+', 'Shift+ArrowLeft', 'Shift+ArrowLeft']) await app.page.keyboard.press(key);
  await app.page.waitForTimeout(200);
  assert.equal(await model.canvasFocused(), true);
  assert.ok(!before.equals(await model.canvas.screenshot()), 'the keys zoomed and turned the view');
  // Held down, − stops while the model is still there to see (it shrank past the far plane and vanished).
  for (let i = 0; i < 40; i++) await app.page.keyboard.press('-');
  await pixelsUntil(model.canvas, (s) => s.blue > 0, 'the cube, far away but there');

  await app.page.setViewportSize({ width: 900, height: 780 });
  const preview = await model.canvas.boundingBox();
  const facts = await model.facts.boundingBox();
  assert.ok(preview && facts && facts.y >= preview.y + preview.height - 1, 'the facts are under the preview');
  assert.ok(preview && preview.width > 500, `the preview keeps the width (${preview?.width} px)`);
  await app.screenshot('viewer-narrow');
});

test('the size box outlines a model and writes its sides, so a part thinner than a pixel still shows', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  // A needle 0.01 mm across and 50 mm long: narrower than a pixel at any zoom that shows its length.
  const file = await boxFile('needle.stl', 0.01, 0.01, 50);
  const model = await openModel(app, file);
  await expect(model.sizeSide('z')).hasText('Height 50.0 mm');
  const outlined = await pixelsUntil(model.canvas, (s) => s.dark > 40, 'the needle\'s box');
  await model.sizeBox.uncheck();
  await model.sizeSide('z').waitFor({ state: 'detached' });
  const bare = await pixelsUntil(model.canvas, (s) => s.dark < outlined.dark / 2, 'the plate without the box');
  assert.ok(bare.dark < outlined.dark);
  await model.sizeBox.check();
  await expect(model.sizeSide('z')).hasText('Height 50.0 mm');
});

test('a sheet 0.2 mm thick lying on the plate is drawn whole, not covered by the plate', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const file = await boxFile('sheet.stl', 120, 80, 0.2);
  const model = await openModel(app, file);
  // Seen from the default angle the sheet covers about a fifth of the canvas; the plate hid most of it.
  const drawn = await pixelsUntil(model.canvas, (s) => s.blue > s.total * 0.12, 'the whole sheet');
  assert.ok(drawn.blue > drawn.total * 0.12);
  await app.page.setViewportSize({ width: 900, height: 780 });
  await pixelsUntil(model.canvas, (s) => s.blue > s.total * 0.06, 'the whole sheet in a narrow window');
});

test('a second preview, and the first after a restart, is framed under the tool row from its first picture, not moved down when the row appears', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const page = app.page;
  // What the page asks of the stage drawing in its worker: where the tool row leaves room, and each model shown.
  await page.addInitScript(() => {
    const asked: [string, unknown][] = ((window as unknown as { stageAsked: [string, unknown][] }).stageAsked = []);
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      const call = message as { type?: string; method?: string; args?: unknown[] };
      // A first picture from the host is shown as the file is: either is the model's first showing.
      if (call?.type === 'call' && (call.method === 'show' || call.method === 'showPicture')) asked.push(['show', null]);
      if (call?.type === 'call' && call.method === 'setLabelInsets') asked.push([call.method, call.args?.[0]]);
      return (post as (...args: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
  });
  await page.reload();
  // Two closed boxes: the row holds the same tools for both (an open mesh would add its open edges' switch).
  const lib = await libraryWith(page, await boxFile('small box.stl', 10, 20, 30));
  await lib.fileInput.setInputFiles([await boxFile('large box.stl', 40, 50, 60)]);
  await lib.lists(2);
  const model = modelDetail(page);
  const asked = () => page.evaluate(() => (window as unknown as { stageAsked: [string, unknown][] }).stageAsked.splice(0));
  const topWhenShown = (calls: [string, unknown][]) => {
    let top: unknown;
    for (const [method, arg] of calls) {
      if (method === 'show') return top;
      top = arg;
    }
    return undefined;
  };
  await lib.open('small box');
  await model.fitButton.waitFor();
  await pixelsUntil(model.canvas, (s) => s.blueShades >= 3, 'the small box');
  const first = await asked();
  const rowTop = first.filter(([method]) => method === 'setLabelInsets').at(-1)?.[1];
  assert.ok(typeof rowTop === 'number' && rowTop > 40, `the tool row's room was given (${rowTop})`);
  await model.backToLibrary.click();
  await lib.open('large box');
  await model.fitButton.waitFor();
  await pixelsUntil(model.canvas, (s) => s.blueShades >= 3, 'the large box');
  const second = await asked();
  assert.equal(topWhenShown(second), rowTop, 'the second model was framed with the row’s room when it was first drawn');
  assert.ok(second.every(([method, arg]) => method !== 'setLabelInsets' || arg === rowTop), `never reframed: ${JSON.stringify(second)}`);
  // The app started again: its first preview too.
  await page.reload();
  await workspace(page).nav('library');
  await lib.open('small box');
  await model.fitButton.waitFor();
  await pixelsUntil(model.canvas, (s) => s.blueShades >= 3, 'the small box, after a restart');
  assert.equal(topWhenShown(await asked()), rowTop, 'the first preview after a restart was framed with the row’s room');
});
