// How the app looks and measures, as Settings say: dark across every view (the 3D preview's scene
// included), light or as the system is, and sizes in millimetres or inches wherever sizes show.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { CORPUS as corpus } from '../corpus.ts';
import { pixelsUntil, samplePixels } from './canvas-pixels.ts';
import { openDemoProject, RECIPIENT } from './demo.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp, type AppUnderTest } from './harness.ts';
import { batchPage, csvFile } from './pages/batch.ts';
import { libraryPage } from './pages/library.ts';
import { modelDetail } from './pages/model-detail.ts';
import { orderForm } from './pages/order-form.ts';
import { ordersPage } from './pages/orders.ts';
import { quotePage } from './pages/quote.ts';
import { workspace } from './pages/workspace.ts';
import { projectsPage } from './pages/projects.ts';
import { settingsPage } from './pages/settings.ts';
import { signInPage } from './pages/sign-in.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

/** The page's background and text as painted: dark means a dark background under light text. */
async function painted(page: Page): Promise<{ theme: string | undefined; background: number; text: number }> {
  return page.evaluate(() => {
    const lightness = (colour: string) => {
      const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).map(Number);
      return Math.round((r + g + b) / 3);
    };
    return {
      theme: document.documentElement.dataset.theme,
      background: lightness(getComputedStyle(document.body).backgroundColor || getComputedStyle(document.documentElement).backgroundColor),
      text: lightness(getComputedStyle(document.documentElement).color),
    };
  });
}

/** The preview's own background: how light its corner is (the scene's clear colour, off the plate). */
const sceneCorner = async (canvas: Locator) => (await samplePixels(canvas)).corner;

async function pollUntil(read: () => Promise<number>, wanted: (value: number) => boolean, what: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  let value = await read();
  while (!wanted(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: last read ${value}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/** Enabled primary buttons in view whose label is below 4.5:1 against the button (WCAG AA for body text). */
function faintButtons(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const luminance = (colour: string) => {
      const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map((c) => Number(c) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    return [...document.querySelectorAll<HTMLButtonElement>('button.primary:not(:disabled), button.danger:not(:disabled)')]
      .filter((button) => button.offsetParent !== null)
      .flatMap((button) => {
        const style = getComputedStyle(button);
        const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
        const ratio = (light + 0.05) / (dark + 0.05);
        return ratio < 4.5 ? [`${button.textContent?.trim()}: ${ratio.toFixed(2)}:1`] : [];
      });
  });
}

async function darkShot(app: AppUnderTest, name: string) {
  const look = await painted(app.page);
  assert.equal(look.theme, 'dark', name);
  assert.ok(look.background < 60 && look.text > 180, `${name} is dark: ${JSON.stringify(look)}`);
  assert.deepEqual(await faintButtons(app.page), [], `${name}: buttons too faint to read`);
  await app.screenshot(`dark-${name}`);
}

test('dark mode across every view, the preview\'s scene included, and back to light as it is chosen', { timeout: 180_000 }, async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  // Chosen before, kept by the host: the app opens dark.
  assert.ok((await app.booted.host.invoke('settings:update', { theme: 'dark' })).ok);
  await app.page.reload();
  await signInPage(app.page).form.waitFor();
  await darkShot(app, 'sign-in');

  await sandbox.operator.createProject('Spare parts', { assign: 'demo@printdesk.test' });
  const modelId = await openDemoProject(app);
  const [project] = await sandbox.operator.listProjects();
  await sandbox.operator.addModel(project.projectId, join(corpus, '3mf', 'cube_gears.3mf'), { name: 'Cube gears' });
  await darkShot(app, 'overview');
  await projectsPage(app.page).switchProject.click();
  await expect(projectsPage(app.page).items.nth(1)).visible();
  await darkShot(app, 'projects');
  await projectsPage(app.page).open('Demo');

  const shell = workspace(app.page);
  const lib = libraryPage(app.page);
  const model = modelDetail(app.page);
  await shell.nav('library');
  await lib.thumbnailsDrawn(2, 30_000);
  await darkShot(app, 'library');
  await lib.open('Cube gears');
  await expect(model.localFacts).hasText('Triangles');
  // The scene is drawn on the theme's dark background (#181c22: not the black of a canvas not drawn yet),
  // the model in it; drawn in a worker, it reaches the page's canvas a frame or more later.
  await pixelsUntil(model.canvas, (sample) => sample.distinct > 20, 'the model is drawn');
  const dark = await pollUntil(() => sceneCorner(model.canvas), (v) => v > 10 && v < 60, 'the preview should be dark');
  await darkShot(app, 'model');

  await shell.nav('quote');
  const quote = quotePage(app.page);
  await quote.modePackage.check();
  await quote.pickCountry('germ');
  await quote.weight.fill('800');
  await quote.submit.click();
  await expect(quote.result).visible();
  await darkShot(app, 'quote');

  const form = orderForm(app.page);
  await shell.nav('orders');
  await ordersPage(app.page).newOrder.click();
  await form.fillWithModel(RECIPIENT, modelId);
  await darkShot(app, 'order-form');
  await form.place.click();
  await expect(ordersPage(app.page).row('placed')).visible();
  // One order waiting for the user too: the warning colours in the dark.
  await shell.nav('settings');
  await settingsPage(app.page).workOffline.check();
  await shell.nav('orders');
  await ordersPage(app.page).newOrder.click();
  await form.fillRecipient(RECIPIENT);
  await form.addModelById(modelId);
  await form.rule.selectOption('cheapest');
  await form.ceiling.fill('0,50');
  await form.place.click();
  await expect(ordersPage(app.page).row('queued')).visible();
  await darkShot(app, 'outbox-offline');
  await shell.workOnline.click();
  await ordersPage(app.page).tab('attention').click();
  await expect(ordersPage(app.page).row('needs-attention')).visible();
  await expect(shell.toast).visible();
  await darkShot(app, 'orders');

  await shell.nav('batch');
  const batch = batchPage(app.page);
  await batch.view.waitFor();
  await batch.importFile(await csvFile('orders.csv', ['orderReference,firstName,lastName,streetAddress,postal,city,country,email,modelId,quantity', `D-1,Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada-at-example.com,${modelId},1`].join('\n')));
  await batch.table.waitFor().catch(() => undefined);
  await darkShot(app, 'batch');

  await shell.dismissToast();
  await shell.nav('settings');
  await darkShot(app, 'settings');
  // Light again, at once, the preview too.
  await settingsPage(app.page).theme('light').check();
  assert.equal((await painted(app.page)).theme, 'light');
  await shell.nav('library');
  await lib.open();
  await expect(model.localFacts).hasText('Triangles');
  const light = await pollUntil(() => sceneCorner(model.canvas), (v) => v > 200, 'the preview should be light');
  assert.ok(light > dark);
});

test('"As the system" follows the system between light and dark, the open preview with it', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  await app.page.emulateMedia({ colorScheme: 'light' });
  await openDemoProject(app);
  assert.equal((await painted(app.page)).theme, 'light', 'the default is the system\'s, light here');
  const model = modelDetail(app.page);
  await workspace(app.page).nav('library');
  await libraryPage(app.page).open();
  await expect(model.localFacts).hasText('Triangles');
  await pollUntil(() => sceneCorner(model.canvas), (v) => v > 200, 'the preview should be light');
  await app.page.emulateMedia({ colorScheme: 'dark' });
  await app.page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await pollUntil(() => sceneCorner(model.canvas), (v) => v >= 0 && v < 60, 'the preview should follow the system to dark');
});

test('sizes in inches wherever sizes show: the model\'s facts, the preview\'s size line and labels, a parcel in a quote', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  await openDemoProject(app);
  const shell = workspace(app.page);
  await shell.nav('settings');
  await settingsPage(app.page).units('in').check();
  const model = modelDetail(app.page);
  await shell.nav('library');
  await libraryPage(app.page).open();
  await expect(model.factDimensions).hasText(/^[\d.]+ × [\d.]+ × [\d.]+ in$/);
  await expect(model.dimensions).hasText(' in');
  await expect(model.grid).hasText(/grid [\d.]+ in/);
  await expect(model.sizeSide('x')).hasText(/Width [\d.]+ in/);
  await expect(model.localFacts).hasText('in³');
  await app.screenshot('model-inches');
  // A parcel's sides are typed in inches and asked in centimetres: 10 in is 25.4 cm.
  await shell.nav('quote');
  const quote = quotePage(app.page);
  await quote.modePackage.check();
  await expect(quote.view).hasText('Length (in)');
  await quote.pickCountry('germ');
  await quote.weight.fill('800');
  for (const side of [quote.length, quote.width, quote.height]) await side.fill('10');
  await quote.submit.click();
  await expect(quote.result).visible();
  const inches = await app.booted.host.invoke('quotes:seen', { country: 'DE' });
  assert.ok(inches.ok);
  assert.deepEqual((inches.value as { request: { package?: unknown } }[])[0].request.package, { weight: 800, length: 25.4, width: 25.4, height: 25.4 });
});
