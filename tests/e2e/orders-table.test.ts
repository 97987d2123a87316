// Orders as a print shop sees them: a day of over two hundred orders (placed one by one, a batch from a
// CSV, some moved on by the service, some stuck), found, sorted, selected and acted on in the table.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { orderRow, sortRows, SORT_KEYS, type SortKey } from '../../renderer/lib/order-table.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp, type AppUnderTest } from './harness.ts';
import { orderPage } from './pages/order-page.ts';
import { confirmDialog } from './pages/dialog.ts';
import { orderRow as row, ordersPage } from './pages/orders.ts';
import { workspace } from './pages/workspace.ts';
import { projectsPage } from './pages/projects.ts';
import { invoke, orderFields, placeOrders, sendBatch, troubledOrders } from './seed-orders.ts';
import { signedInWithModel } from './signed-in.ts';

let browser: Browser;
let app: AppUnderTest;
let projectId: string;
let batchId: string;
/** The name the library gives the model the batch file names by id only. */
let names: Map<string, string>;

before(async () => {
  browser = await launchChromium();
  app = await openApp(browser);
  const { project, model } = await signedInWithModel(app);
  projectId = project.projectId;
  names = new Map([[model.modelId, model.name]]);
  batchId = await sendBatch(app, projectId, model.modelId, 24);
  await placeOrders(app, projectId, model.modelId, 200);
  await troubledOrders(app, projectId, model.modelId);
  for (let n = 0; n < 3; n++) await invoke(app, 'drafts:save', { projectId, fields: orderFields(900 + n, model.modelId, null) });
  await app.page.reload();
  await projectsPage(app.page).home.waitFor();
  await workspace(app.page).nav('orders');
  await ordersPage(app.page).table.waitFor();
}, { timeout: 240_000 });
after(async () => {
  await app?.close();
  await closeAll(browser);
});

const drafts = () => invoke<Draft[]>(app, 'drafts:list', { projectId });
const list = () => ordersPage(app.page);
/** The row's recipient cell: a click there selects (the reference is a link that opens the order). */
const cell = (index: number) => row(list().rowAt(index)).recipient;
const selectedCount = () => list().selectedCount;

/** The cells of these columns, or their badges, whose text is cut short in the rows drawn. */
const cutShort = (keys: string[]) =>
  list().table.evaluate((table, keys) =>
    keys.flatMap((key) =>
      [...table.querySelectorAll(`[data-testid="order-row"] .cell.${key}`)]
        .flatMap((cell) => [cell, ...cell.querySelectorAll('*')])
        .filter((box) => box.scrollWidth > box.clientWidth)
        .map((box) => `${key}: ${box.textContent?.trim()}`),
    ), keys);

test('over two hundred orders in a dense table, at 1280×800 and 900×700, only the rows in view drawn', { timeout: 60_000 }, async () => {
  const page = app.page;
  const all = await drafts();
  assert.ok(all.length >= 200, `${all.length} orders`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(list().count).hasText(`${all.length} orders`);
  const drawn = await list().rows.count();
  assert.ok(drawn > 10 && drawn < 60, `${drawn} rows drawn of ${all.length}`);
  assert.equal(await list().table.getAttribute('aria-rowcount'), String(all.length + 1));
  // At 1280 the batch gives its room to the others: none of these is cut short in the rows drawn (a
  // reference may be a UUID, a recipient or the models as long as they come).
  await expect(list().table).hasAttribute('data-compact', 'false');
  assert.equal(await list().sortBy('batch').count(), 0);
  await app.screenshot('orders-table-1280');
  assert.deepEqual(await cutShort(['country', 'method', 'price', 'status', 'placedAt']), [], 'cut short at 1280');
  // Orders waiting or needing attention: a price with its quote's age, "Needs attention" whole.
  for (const tab of ['outbox', 'attention'] as const) {
    await list().tab(tab).click();
    await expect(list().rows.first()).visible();
    assert.deepEqual(await cutShort(['price', 'status']), [], `cut short at 1280 under ${tab}`);
  }
  await list().tab('all').click();
  await page.setViewportSize({ width: 900, height: 700 });
  // A narrow window leaves out the method and batch columns, once the table has measured its new width;
  // a status ("In production") is still read whole.
  await expect(list().table).hasAttribute('data-compact', 'true');
  assert.equal(await list().sortBy('batch').count(), 0);
  await app.screenshot('orders-table-900');
  assert.deepEqual(await cutShort(['country', 'price', 'status', 'placedAt']), [], 'cut short at 900');
  await list().tab('attention').click();
  await expect(list().rows.first()).visible();
  assert.deepEqual(await cutShort(['status']), [], 'cut short at 900 under attention');
  await list().tab('all').click();
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(list().sortBy('batch')).visible();
});

test('every column sorts, both ways, in the order its values read', { timeout: 60_000 }, async () => {
  // Wide enough for every column (the batch's included).
  await app.page.setViewportSize({ width: 1440, height: 900 });
  const rows = (await drafts()).map((d) => orderRow(d, names));
  for (const key of SORT_KEYS) {
    const header = list().sortBy(key);
    await header.click();
    const first = await list().sortOf(key);
    assert.ok(first === 'ascending' || first === 'descending', `${key}: ${first}`);
    await header.click();
    const dir = first === 'ascending' ? 'desc' : 'asc';
    await expect(list().column(key)).visible();
    assert.equal(await list().sortOf(key), dir === 'asc' ? 'ascending' : 'descending');
    const expected = sortRows(rows, { key: key as SortKey, dir }).slice(0, 8).map((r) => r.reference);
    assert.deepEqual((await list().references()).slice(0, 8), expected, `sorted by ${key}, ${dir}`);
  }
  // Prices read highest first, as a reader checks them.
  await list().sortBy('price').click();
  if ((await list().sortOf('price')) !== 'descending') await list().sortBy('price').click();
  const prices = (await row(list().rows).price.allTextContents()).map((text) => Number(text.match(/\d[\d,]*\.\d\d/)?.[0].replaceAll(',', '') ?? Number.NaN));
  assert.deepEqual(prices, [...prices].sort((a, b) => b - a));
});

test('filters combine: status tab, the service status, batch, country, days and words, and clear at once', { timeout: 60_000 }, async () => {
  const all = await drafts();
  await list().tab('placed').click();
  await list().filter('status').selectOption('shipped');
  await list().filter('country').selectOption('DE');
  const shippedToGermany = all.filter((d) => d.state === 'placed' && d.order?.status === 'shipped' && d.recipient.country === 'DE');
  assert.ok(shippedToGermany.length > 0);
  await expect(list().count).hasText(`${shippedToGermany.length} ${shippedToGermany.length === 1 ? 'order' : 'orders'} of ${all.length}`);
  for (const text of await list().rows.allTextContents()) assert.match(text, /Germany.*Shipped/);
  await app.screenshot('orders-filtered');

  await list().filter('status').selectOption('');
  await list().filter('country').selectOption('');
  await list().filter('batch').selectOption(batchId);
  await expect(list().count).hasText(`24 orders of ${all.length}`);
  const fromBatch = all.filter((d) => d.batch?.batchId === batchId);
  const lovelaces = fromBatch.filter((d) => d.recipient.lastName === 'Lovelace');
  await list().search.fill('lovelace');
  await expect(list().count).hasText(`${lovelaces.length} ${lovelaces.length === 1 ? 'order' : 'orders'} of`);
  await list().filter('range').selectOption('today');
  await expect(list().count).hasText(`${lovelaces.length} ${lovelaces.length === 1 ? 'order' : 'orders'} of`);
  await list().filter('range').selectOption('custom');
  const tomorrow = new Date(Date.now() + 86_400_000);
  await list().filter('from').fill(`${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`);
  await expect(list().none).hasText('No order');
  await list().clearFilters();
  await list().tab('all').click();
  await expect(list().count).hasText(`${all.length} orders`);
  assert.equal(await list().search.inputValue(), '');
});

test('selecting as in a file manager, and cancelling the selection at the service with one question naming the count', { timeout: 90_000 }, async () => {
  const page = app.page;
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  await list().tab('placed').click();
  await list().filter('status').selectOption('received');
  if ((await list().sortOf('reference')) !== 'ascending') await list().sortBy('reference').click();
  if ((await list().sortOf('reference')) !== 'ascending') await list().sortBy('reference').click();

  await cell(0).click();
  await expect(selectedCount()).hasText('1 order selected');
  await cell(3).click({ modifiers: ['Shift'] });
  await expect(selectedCount()).hasText('4 orders selected');
  await cell(1).click({ modifiers: ['ControlOrMeta'] });
  await expect(selectedCount()).hasText('3 orders selected');
  await app.screenshot('orders-selected');
  const chosen = [0, 2, 3];
  const references = await Promise.all(chosen.map((i) => row(list().rowAt(i)).reference.textContent()));

  await list().bulk('cancel').click();
  const dialog = confirmDialog(page);
  await expect(dialog.view).hasText('Cancel 3 orders?');
  await expect(dialog.yesButton).hasText('Cancel 3 orders');
  await app.screenshot('orders-cancel-confirm');
  await dialog.yes();
  await expect(list().bulkOutcome).hasText('3 orders cancelled.');
  const atService = new Map((await sandbox.operator.listOrders({ projectId })).map((o) => [o.orderReference, o.status]));
  assert.deepEqual(references.map((r) => atService.get(r ?? '')), ['cancelled', 'cancelled', 'cancelled']);
  // No longer "received", they leave this list, and the selection with them.
  assert.equal(await selectedCount().count(), 0);
  for (const reference of references) assert.equal(await list().byReference(reference ?? '').count(), 0);

  // Ctrl/⌘+A takes every order listed; Escape lets go.
  await cell(0).click();
  await page.keyboard.press('ControlOrMeta+A');
  const listed = (await list().count.textContent())?.match(/^([\d,]+) orders/)?.[1];
  await expect(selectedCount()).hasText(`${listed} orders selected`);
  await page.keyboard.press('Escape');
  assert.equal(await selectedCount().count(), 0);
});

test('the keyboard: arrows move, Shift extends, Delete asks to cancel, Enter opens; coming back finds the same list', { timeout: 60_000 }, async () => {
  const page = app.page;
  await cell(0).click();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Shift+ArrowDown');
  await expect(selectedCount()).hasText('2 orders selected');
  await page.keyboard.press('Delete');
  await expect(confirmDialog(page).view).hasText('Cancel 2 orders?');
  await confirmDialog(page).no();
  await expect(selectedCount()).hasText('2 orders selected');

  await page.keyboard.press('ArrowUp');
  const focused = await list().table.getAttribute('aria-activedescendant');
  const reference = await row(await list().activeRow()).reference.textContent();
  await page.keyboard.press('Enter');
  await expect(orderPage(page).reference).hasText(reference ?? '');
  await orderPage(page).back.click();
  // The same tab, filters, sort and row, and the keyboard back on the table.
  assert.equal(await list().tab('placed').getAttribute('aria-pressed'), 'true');
  assert.equal(await list().filter('status').inputValue(), 'received');
  assert.equal(await list().sortOf('reference'), 'ascending');
  assert.equal(await list().table.getAttribute('aria-activedescendant'), focused);
  assert.equal(await list().tableFocused(), true);
  await page.keyboard.press('ArrowDown');
  assert.notEqual(await list().table.getAttribute('aria-activedescendant'), focused, 'the arrows work at once');
  await list().clearFilters();
});

test('holding and releasing queued orders, retrying a rejected one, and exporting the selection', { timeout: 60_000 }, async () => {
  const page = app.page;
  await list().tab('outbox').click();
  await expect(list().row('queued').first()).visible();
  await cell(0).click();
  await page.keyboard.press('ControlOrMeta+A');
  // One of the two is held already: Hold counts the other, Release the one.
  await expect(list().bulk('hold')).hasText('Hold 1');
  await expect(list().bulk('release')).hasText('Release 1');
  assert.equal(await list().bulk('cancel').count(), 0, 'nothing placed: no Cancel');
  await list().bulk('hold').click();
  await expect(list().bulkOutcome).hasText('1 order held in the outbox.');
  await expect(list().bulk('release')).hasText('Release 2');
  for (const badge of await row(list().rows).badge.allTextContents()) assert.equal(badge, 'On hold');
  await list().bulk('release').click();
  await expect(list().bulkOutcome).hasText('2 orders released.');
  await expect(row(list().rowAt(0)).badge).hasText('In the outbox');

  await list().tab('attention').click();
  const rejected = list().row('rejected');
  await row(rejected).recipient.click();
  await list().bulk('retry').click();
  await expect(list().bulkOutcome).hasText('1 order sent again.');
  await list().open(list().row('rejected'));
  await expect(orderPage(page).timeline).hasText('Send attempt 2: rejected by the service');
  await orderPage(page).back.click();

  await list().tab('placed').click();
  await cell(0).click();
  await cell(1).click({ modifiers: ['Shift'] });
  const references = await Promise.all([0, 1].map((i) => row(list().rowAt(i)).reference.textContent()));
  const file = await list().exportSelected();
  const lines = (await readFile((await file.path())!, 'utf8')).trim().split('\r\n');
  assert.equal(lines.length, 3);
  assert.deepEqual(lines.slice(1).map((line) => line.split('","')[0].replace(/^"/, '')), references);
});
