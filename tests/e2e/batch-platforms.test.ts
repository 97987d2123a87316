// A print shop drops its platform's export as downloaded (tests/fixtures/platforms): the review names the
// layout and shows each recipient's name split in two, a SKU is picked once from the project's models, what
// the platform does not export is given once for every order, and the open orders are sent and reported.
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import type { Browser } from 'playwright-core';
import { CORPUS as corpus } from '../corpus.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openAppOnProject } from './harness.ts';
import { batchPage, openBatchPage } from './pages/batch.ts';

const fixture = (name: string) => join(import.meta.dirname, '..', 'fixtures', 'platforms', name);

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

/** The app on the Batch view of a project holding the models the exports' SKUs name. */
async function openShop(t: TestContext) {
  const { app, sandbox, project } = await openAppOnProject(browser, t);
  for (const file of ['Cube-binary.stl', 'Star-binary.stl']) await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', file));
  const page = app.page;
  await openBatchPage(page);
  const placed = async () => new Map((await sandbox.operator.listOrders({ projectId: project.projectId })).map((o) => [o.orderReference, o]));
  return { app, page, batch: batchPage(page), placed };
}

interface Expected {
  file: string;
  layout: string;
  /** a row and the columns of its first and last name, as split (or as the platform wrote them) */
  name: { row: number; first: number; last: number; is: [string, string] };
  /** what is no print in the file, marked once */
  notPrint?: string;
  /** the platform exports no e-mail (or leaves it blank): one for every order */
  email?: boolean;
  sends: number;
}

type Shop = Awaited<ReturnType<typeof openShop>>;

async function dropReviewSend(t: TestContext, expected: Expected, between?: (shop: Shop) => Promise<void>, reviewed?: (shop: Shop) => Promise<void>) {
  const shop = await openShop(t);
  const { batch } = shop;
  await batch.importFile(fixture(expected.file));
  await expect(batch.layout).hasText(expected.layout);
  const { row, first, last, is } = expected.name;
  assert.deepEqual([await batch.cell(row, first).inputValue(), await batch.cell(row, last).inputValue()], is);
  // The SKU a model's file name matches is taken by itself; the other is picked once.
  // No e-mail in the file: the orders wait for one, given once for all.
  if (expected.email) {
    await expect(batch.problems).visible();
    await batch.giveForEveryRow('email', 'orders@printfarm.example');
  }
  await expect(batch.skuModel('Cube-binary')).hasText('Cube-binary');
  await expect(batch.skuSearch('STAR-01')).visible();
  if (between) await between(shop);
  await batch.pickSku('STAR-01', 'Star-binary');
  await expect(batch.skuModel('STAR-01')).hasText('Star-binary');
  if (expected.notPrint) {
    await batch.skipSku(expected.notPrint);
    await expect(batch.sku(expected.notPrint)).hasText('left out of orders');
    await shot(batch.skus, `43-batch-sku-table-${expected.file.replace(/\W.*$/, '')}`);
  }
  await expect(batch.send).hasText(`Send ${expected.sends} orders`);
  if (reviewed) await reviewed(shop);
  await batch.sendConfirmed();
  await expect(batch.report).visible();
  await expect(batch.placed).hasText(`${expected.sends} orders placed`);
  return shop;
}

test('a Shopify export: layout named, names split and one corrected, a SKU picked once, the gift card no print, the open orders sent', async (t) => {
  const shop = await dropReviewSend(
    t,
    { file: 'shopify-orders_export_1.csv', layout: 'Shopify orders export, 13 line items, 10 orders', name: { row: 2, first: 79, last: 80, is: ['Ada', 'Lovelace'] }, notPrint: 'Gift Card', sends: 6 },
    async ({ app, batch }) => {
      // Orders not open on Shopify are listed with the choice to take them; Spain and China without a
      // province are warnings, not problems.
      await expect(batch.source).hasText('Only open orders are taken.');
      for (const reason of ['unpaid', 'fulfilled', 'cancelled', 'refunded']) assert.equal(await batch.include(reason).isChecked(), false);
      await expect(batch.warnings).hasText('2 rows with warnings');
      await expect(batch.table).hasText('Carriers to Spain usually want a state or province');
      await app.screenshot('40-batch-shopify-dropped');
      await batch.openSkuPicker('STAR-01');
      await expect(batch.skuChoice('STAR-01', 'Star-binary')).visible();
      await shot(batch.skus, '42-batch-sku-picker');
      // A name is not always two words: José García López's family name is both his surnames.
      await batch.fixCell(6, 79, 'José');
      await batch.fixCell(6, 80, 'García López');
    },
    async ({ app, page }) => {
      // Tall enough for the rows under the SKU table, for the README, and scrolled back to the file's start.
      await page.setViewportSize({ width: 1280, height: 1300 });
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        for (const el of document.querySelectorAll('*')) if (el.scrollTop || el.scrollLeft) el.scrollTo(0, 0);
      });
      await app.screenshot('44-batch-shopify-review');
      await page.setViewportSize({ width: 1200, height: 780 });
    },
  );
  const placed = await shop.placed();
  assert.deepEqual([...placed.keys()].sort(), ['#1001', '#1002', '#1003', '#1008', '#1009', '#1010']);
  assert.deepEqual([placed.get('#1003')?.firstName, placed.get('#1003')?.lastName], ['José', 'García López']);
  assert.equal(placed.get('#1001')?.city, 'Amsterdam', 'the shipping address, not the billing one');
  assert.equal(placed.get('#1001')?.models.length, 2, 'the gift card left out');
  await shop.app.screenshot('41-batch-shopify-report');
});

test("Etsy's order items: the shop's e-mail given once for every order, the digital download no print", async (t) => {
  const shop = await dropReviewSend(t, {
    file: 'EtsySoldOrderItems2026-9.csv',
    layout: 'Etsy sold order items download, 7 line items, 5 orders',
    name: { row: 2, first: 33, last: 34, is: ['Emma', 'Müller'] },
    notPrint: 'Printable STL file (digital download)',
    email: true,
    sends: 4,
  }, async ({ batch }) => {
    await expect(batch.constants).hasText('Etsy exports no email or phone number');
    await expect(batch.notes).hasText('"Germany" read as DE');
  });
  const placed = await shop.placed();
  assert.equal(placed.get('3012345678')?.email, 'orders@printfarm.example');
  assert.equal(placed.get('3012345678')?.country, 'DE');
});

test("Etsy's orders: an ambiguous country is flagged and fixed in its cell, an order of two SKUs sent whole", async (t) => {
  const shop = await dropReviewSend(t, {
    file: 'EtsySoldOrders2026-9.csv',
    layout: 'Etsy sold orders download, 5 orders',
    name: { row: 2, first: 4, last: 5, is: ['Lucía', 'Fernández'] },
    email: true,
    sends: 4,
  }, async ({ app, batch }) => {
    await expect(batch.table).hasText('"Georgia" could be the country Georgia (GE) or the US state');
    await batch.fixCell(4, 14, 'GE');
    // The column matching fits the window: at 900 px (Etsy's long column names make wide menus), none runs
    // past its card.
    const size = app.page.viewportSize();
    await app.page.setViewportSize({ width: 900, height: 700 });
    await batch.columns.evaluate((details: HTMLDetailsElement) => (details.open = true));
    const past = await batch.columns.evaluate((card) => {
      const edge = card.getBoundingClientRect().right;
      return [...card.querySelectorAll('select')].filter((menu) => menu.getBoundingClientRect().right > edge + 0.5).length;
    });
    assert.equal(past, 0, `${past} menus run past the card at 900 px`);
    if (size) await app.page.setViewportSize(size);
  });
  const placed = await shop.placed();
  assert.equal(placed.get('3019876543')?.country, 'GE');
  assert.equal(placed.get('3019876542')?.models.length, 2);
});

test('an Amazon unshipped orders report: tab-separated, its unpaid order left out', async (t) => {
  const shop = await dropReviewSend(t, {
    file: 'amazon-unshipped-orders.txt',
    layout: 'Amazon unshipped orders report, 7 line items, 5 orders',
    name: { row: 2, first: 30, last: 31, is: ['Robert', 'Jones'] },
    sends: 4,
  });
  const placed = await shop.placed();
  assert.equal(placed.has('114-5555555-1234567'), false);
  assert.equal(placed.get('026-9988776-5544332')?.streetAddress, 'Flat 4, Riverside House, 12 Quay Street');
});

test("an eBay orders report: the lines around the header read past, an order's summary row and its items as one order", async (t) => {
  const shop = await dropReviewSend(t, {
    file: 'eBay-OrdersReport-Sep-10-2026-131500.csv',
    layout: 'eBay orders report, 7 line items, 5 orders',
    name: { row: 4, first: 80, last: 81, is: ['Lucas', 'Martin'] },
    email: true,
    sends: 3,
  });
  const placed = await shop.placed();
  assert.equal(placed.get('12-22222-22222')?.models.length, 2);
  assert.equal(placed.get('12-11111-11111')?.country, 'FR');
});

async function shot(locator: ReturnType<typeof batchPage>['skus'], name: string) {
  await locator.screenshot({ path: join(import.meta.dirname, '..', '..', 'test-results', `${name}.png`) });
}

test("the Batch view's samples name the platforms, and a platform's sample, made with the project's models, imports as it is", async (t) => {
  const { batch } = await openShop(t);
  const offered = await batch.sampleNames();
  for (const name of ['Shopify orders export', 'Etsy sold order items download', 'Etsy sold orders download', 'Amazon unshipped orders report', 'eBay orders report']) assert.ok(offered.includes(name), offered.join(' | '));
  const sample = await batch.downloadSample('Shopify orders export');
  assert.equal(sample.suggestedFilename(), 'orders_export_1.csv');
  const saved = join(await mkdtemp(join(tmpdir(), 'batch-sample-')), sample.suggestedFilename());
  await sample.saveAs(saved);
  await batch.importFile(saved);
  await expect(batch.layout).hasText('Shopify orders export, 3 line items, 2 orders');
  // Its SKUs are the project's models' file names: matched without asking.
  await expect(batch.skuModel('Cube-binary')).hasText('Cube-binary');
  await expect(batch.skuModel('Star-binary')).hasText('Star-binary');
  await expect(batch.send).hasText('Send 2 orders');
});
