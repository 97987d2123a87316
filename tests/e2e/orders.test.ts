import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp, type AppUnderTest } from './harness.ts';
import { libraryPage } from './pages/library.ts';
import { confirmDialog } from './pages/dialog.ts';
import { modelDetail } from './pages/model-detail.ts';
import { orderForm } from './pages/order-form.ts';
import { orderPage } from './pages/order-page.ts';
import { orderRow, ordersPage } from './pages/orders.ts';
import { quotePage } from './pages/quote.ts';
import { workspace } from './pages/workspace.ts';
import { projectHome } from './pages/project-home.ts';
import { projectsPage } from './pages/projects.ts';
import { outbox } from './pages/outbox.ts';
import { settingsPage } from './pages/settings.ts';
import { signInPage } from './pages/sign-in.ts';
import { openDemoProject, RECIPIENT } from './demo.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

/** The demo project open, a new order begun with these recipient fields typed. */
async function startNewOrder(app: AppUnderTest, recipient: Record<string, string>) {
  await openDemoProject(app);
  const list = ordersPage(app.page);
  const form = orderForm(app.page);
  await workspace(app.page).nav('orders');
  await list.newOrder.click();
  await form.fillRecipient(recipient);
  return { list, form };
}

/** The demo project open with one real model, and a complete new order for it in the form (not placed). */
async function completeNewOrder(app: AppUnderTest) {
  const modelId = await openDemoProject(app);
  const list = ordersPage(app.page);
  const form = orderForm(app.page);
  await workspace(app.page).nav('orders');
  await list.newOrder.click();
  await form.fillWithModel(RECIPIENT, modelId);
  return { modelId, list, form };
}

test('a package quote validates like the service and lists methods sortable by price and speed', async () => {
  const app = await openApp(browser);
  await openDemoProject(app);
  await workspace(app.page).nav('quote');
  const quote = quotePage(app.page);
  await quote.modePackage.check();
  await quote.pickCountry('germ');
  await quote.weight.fill('800');
  await quote.length.fill('20');
  await quote.submit.click();
  await expect(quote.dimensionsError).hasText('Give all three of length, width and height, or none of them');
  // The focus goes to the first field in question: the width, the first of the two not given.
  await app.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'width', null, { timeout: 5_000 });
  await app.screenshot('11-quote-invalid');
  await quote.width.fill('15');
  await quote.height.fill('10');
  await quote.submit.click();
  await expect(quote.result).visible();
  assert.ok((await quote.rows.count()) >= 3);
  const prices = await quote.prices.allTextContents();
  assert.ok(prices.every((p) => /€|EUR/.test(p)), prices.join());
  await app.screenshot('12-quote');
  await quote.sortSpeed.click();
  await expect(quote.rows.first()).visible();
  // A decimal comma is read as a point; other text is named, not shown back as "NaN"; and a quote for
  // other details than the form's is put away until asked again.
  await quote.weight.fill('12,5');
  await expect(quote.stale).visible();
  assert.equal(await quote.weight.inputValue(), '12,5');
  await quote.weight.fill('800 g');
  await quote.submit.click();
  await expect(quote.view).hasText('Not a number: give the weight in grams');
  assert.equal(await quote.weight.inputValue(), '800 g');
  await quote.weight.fill('12,5');
  await app.screenshot('quote-stale');
  // Asked again from where the old quote was put away.
  await quote.stale.getByRole('button', { name: 'Get quote for these' }).click();
  await expect(quote.result).visible();
  // The models' fields, new to the user after the package's were sent, are not called required before they are sent.
  await quote.modeModels.check();
  assert.equal(await quote.view.locator('.error').count(), 0);
  await quote.modePackage.check();
  // Left for the library and back: the form and its quote as they were.
  await workspace(app.page).nav('library');
  await workspace(app.page).nav('quote');
  assert.equal(await quote.weight.inputValue(), '12,5');
  assert.equal(await quote.width.inputValue(), '15');
  assert.match(await quote.country.inputValue(), /Germany/);
  await expect(quote.result).visible();
  await app.close();
});

/** Starts the app's stopped sandbox again on its port, with its data, runs `check`, then stops it and closes the app. */
async function backOnline(app: AppUnderTest, port: number, check: (sandbox: Awaited<ReturnType<typeof startSandbox>>) => Promise<void>) {
  const again = await startSandbox({ dataDir: join(app.dir, 'sandbox'), port, quiet: true });
  try {
    await check(again);
  } finally {
    await again.close();
  }
  app.booted.sandbox = null;
  await app.close();
}

test('an order from a model quote is placed once and listed with its service order', async () => {
  const app = await openApp(browser);
  const modelId = await openDemoProject(app);
  await workspace(app.page).nav('quote');
  const quote = quotePage(app.page);
  await quote.modeModels.check();
  // A model is found by part of its name; a name that is no model is said so.
  await quote.addModelId.fill('nothing like this');
  await app.page.waitForTimeout(400);
  await quote.addModel.click();
  await expect(quote.modelNotFound).hasText('No model named');
  await quote.addModelId.fill('moon');
  await quote.suggests(1);
  // Added before the suggestions catch up with the text: the name is looked up, not the stale suggestion taken.
  await quote.addModelNamed('moonless');
  await expect(quote.modelNotFound).hasText('No model named “moonless”');
  await quote.addModelNamed('moon');
  await expect(quote.modelLines).hasText('Moon-binary');
  assert.equal(await quote.modelLineId(), modelId);
  assert.equal(await quote.modelLines.count(), 1);
  assert.equal(await quote.modelNotFound.count(), 0);
  await quote.pickCountry('NLD');
  // A quantity the service would refuse is said under its line; Remove stays on the line, by the quantity.
  const line = quote.modelLines.first();
  await line.getByTestId('model-quantity').fill('1.5');
  await quote.submit.click();
  await expect(line.getByTestId('quantity-error')).visible();
  const [quantityBox, removeBox] = await Promise.all([line.getByTestId('model-quantity').boundingBox(), line.getByRole('button', { name: 'Remove' }).boundingBox()]);
  assert.ok(quantityBox && removeBox && Math.abs(quantityBox.y + quantityBox.height / 2 - (removeBox.y + removeBox.height / 2)) < 6, `Remove on the quantity's line: ${JSON.stringify([quantityBox, removeBox])}`);
  await line.getByTestId('model-quantity').fill('1');
  await quote.submit.click();
  await quote.choose.first().click();
  const form = orderForm(app.page);
  await expect(form.view).visible();
  await form.fillRecipient(RECIPIENT);
  await form.field('email').fill('not-an-email');
  await form.place.click();
  await expect(form.fieldErrors.first()).visible();
  // The refusal says so beside the button, and takes the user to the field, scrolled out of view until now.
  await expect(form.formProblems).hasText('One field needs attention');
  assert.equal(await form.focusedField(), 'email');
  await app.screenshot('13-order-form-errors');
  await form.field('email').fill(RECIPIENT.email);
  await form.place.click();
  const list = ordersPage(app.page);
  await expect(list.row('placed')).visible();
  await app.screenshot('14-orders');
  const orders = await app.booted.sandbox?.operator.listOrders();
  assert.equal(orders?.length, 1);
  // The order's own page names the service's order.
  await list.open(list.row('placed'));
  const order = orderPage(app.page);
  await expect(order.serviceOrderId).hasText(orders?.[0].orderId ?? '');
  // Cancelling at the service asks first; "Keep it" (or Escape) leaves the order as it was.
  await order.action('cancel-order').click();
  const dialog = confirmDialog(app.page);
  await expect(dialog.view).hasText('Cancel this order?');
  await app.screenshot('14-cancel-confirm');
  await dialog.no();
  await expect(dialog.view).hidden();
  await order.action('cancel-order').click();
  await expect(dialog.view).visible();
  await app.page.keyboard.press('Escape');
  await expect(dialog.view).hidden();
  assert.equal((await app.booted.sandbox?.operator.listOrders())?.[0].status, 'received');
  await order.action('cancel-order').click();
  await dialog.yes();
  await expect(order.badge).hasText('Cancelled');
  assert.equal((await app.booted.sandbox?.operator.listOrders())?.[0].status, 'cancelled');
  // Cancelled, it offers no Cancel any more; and the list's badge no longer says "Placed" either.
  assert.equal(await order.action('cancel-order').count(), 0);
  await order.back.click();
  await expect(orderRow(list.row('placed')).badge).hasText('Cancelled');
  // The overview's counts open Orders on their own tab.
  await workspace(app.page).nav('overview');
  await projectHome(app.page).openTile('placed');
  await expect(list.view).visible();
  assert.equal(await list.tab('placed').getAttribute('aria-pressed'), 'true');
  await app.close();
});

test('an order the service asks to wait an hour for says when it goes, and Send now sends it at once, once', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  const { list, form } = await completeNewOrder(app);
  sandbox.faults.set({ kind: 'rate-limit', path: '/Order/CreateOrder', count: 1, retryAfterSeconds: 3600 });
  await form.place.click();
  const queued = list.row('queued');
  await list.open(queued);
  const order = orderPage(app.page);
  // An hour ahead may be tomorrow: the day is named then ("… sent Nov 25 at 12:06 AM").
  await expect(order.timeline).hasText(/Waiting to be sent (\w+ \d+ )?at \d/);
  await expect(order.timeline).hasText('Send attempt 1: not sent, to be tried again');
  await app.screenshot('orders-send-now');
  await order.action('send-now').click();
  await expect(order.serviceOrderId).visible();
  await expect(order.timeline).hasText('Send attempt 2: accepted by the service');
  assert.equal((await sandbox.operator.listOrders()).length, 1);
  assert.equal(await order.action('send-now').count(), 0);
  // "An order was placed" is news until the list is left: it does not add up with the next ones.
  await order.back.click();
  await expect(list.placedNotice).hasText('An order was placed.');
  await workspace(app.page).nav('library');
  await workspace(app.page).nav('orders');
  await expect(list.row('placed')).visible();
  assert.equal(await list.placedNotice.count(), 0);
});

test('a draft written offline waits in the outbox and is placed when the service is back', async () => {
  const app = await openApp(browser);
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  const { list, form } = await completeNewOrder(app);
  await form.saveDraft.click();
  await expect(form.saved).visible();
  await app.screenshot('15-draft-saved');

  await sandbox.close();
  await workspace(app.page).nav('orders');
  await list.open(list.row('draft'));
  const order = orderPage(app.page);
  await order.action('place-from-list').click();
  await expect(workspace(app.page).offlineBanner).visible();
  // Its page says why it has not gone, and when it will.
  await expect(order.timeline).hasText('It goes as soon as the service can be reached.');
  await order.back.click();
  await expect(list.row('queued')).visible();
  await outbox(app.page).open();
  await expect(outbox(app.page).summary).hasText('1 order waiting');
  await app.screenshot('16-outbox-offline');
  // Signing out now would leave it waiting for this account: the app says so first, and staying is one click.
  await workspace(app.page).signOut();
  await expect(confirmDialog(app.page).view).hasText('1 order waits in the outbox');
  await app.screenshot('sign-out-orders-waiting');
  await confirmDialog(app.page).no();
  await expect(workspace(app.page).account).visible();
  await list.tab('all').click();

  await backOnline(app, sandbox.port, async (again) => {
    await list.row('placed').waitFor({ timeout: 30_000 });
    await expect(list.placedNotice).visible();
    assert.equal((await again.operator.listOrders()).length, 1);
  });
});

test('offline, another project of the list opens: its library says it cannot be listed, and drafts are written in it', { timeout: 90_000 }, async () => {
  const app = await openApp(browser);
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  await sandbox.operator.createProject('Spare parts', { assign: DEMO_EMAIL });
  await openDemoProject(app);
  const lib = libraryPage(app.page);
  await workspace(app.page).nav('library');
  await expect(lib.rows.first()).visible();

  await sandbox.close();
  await projectsPage(app.page).switchProject.click();
  await projectsPage(app.page).open('Spare parts');
  await expect(projectsPage(app.page).switchProject).hasText('Spare parts');
  await workspace(app.page).nav('library');
  await expect(lib.unlisted).hasText('never listed here');
  // Neither the other project's models nor "no models yet": the list is unknown until the service is back.
  await app.screenshot('library-offline');
  assert.equal(await lib.rows.count(), 0);
  assert.equal(await lib.empty.count(), 0);

  const list = ordersPage(app.page);
  const form = orderForm(app.page);
  await workspace(app.page).nav('orders');
  await list.newOrder.click();
  await form.fillRecipient(RECIPIENT);
  await form.saveDraft.click();
  await expect(form.saved).visible();
  await workspace(app.page).nav('orders');
  await expect(list.row('draft')).visible();
  app.booted.sandbox = null;
  await app.close();
});

test('offline, the library shows the models last listed; one opens with its preview and is ordered by its name', { timeout: 90_000 }, async () => {
  const app = await openApp(browser);
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  await openDemoProject(app);
  const lib = libraryPage(app.page);
  await workspace(app.page).nav('library');
  const model = modelDetail(app.page);
  await lib.open();
  await expect(model.localFacts).visible();

  await sandbox.close();
  await workspace(app.page).nav('library');
  await expect(lib.asOf).hasText(/The models as last listed, (today|\w+ \d+) at \d/);
  await expect(lib.row('Moon-binary')).visible();
  assert.equal(await lib.error.count(), 0);
  await app.screenshot('library-offline-as-listed');
  await lib.open();
  await expect(model.localFacts).visible();
  await expect(model.serviceRecord).hasText('Moon-binary');
  // What needs the service says so instead of failing when pressed; an order can still be drafted.
  for (const [id, action] of Object.entries({ 'quote-model': model.quote, 'rename-model': model.rename, 'model-folder': model.folder, 'delete-model': model.delete })) assert.equal(await action.isDisabled(), true, `${id} is off offline`);
  await app.screenshot('model-offline');

  const form = orderForm(app.page);
  await workspace(app.page).nav('orders');
  await ordersPage(app.page).newOrder.click();
  await form.fillRecipient(RECIPIENT);
  await form.addModelById('moon');
  await expect(form.modelLines.first()).hasText('Moon-binary');
  await form.saveDraft.click();
  await expect(form.saved).visible();

  // Back online, the library lists again by itself.
  await workspace(app.page).nav('library');
  await expect(lib.asOf).visible();
  await backOnline(app, sandbox.port, async () => {
    await lib.asOf.waitFor({ state: 'detached', timeout: 30_000 });
    await expect(lib.row('Moon-binary')).visible();
    await lib.open();
    await expect(model.localFacts).visible();
    assert.equal(await model.quote.isDisabled(), false, 'quotes are back with the service');
  });
});

test('hundreds of orders: only the rows in view are drawn, the end is a scroll away, and one is found by name and place', { timeout: 90_000 }, async () => {
  const app = await openApp(browser);
  await openDemoProject(app);
  const [project] = await app.booted.sandbox!.operator.listProjects();
  for (let n = 1; n <= 250; n++) {
    const recipient = { ...emptyRecipient(), ...RECIPIENT, country: 'NL', firstName: n === 137 ? 'Zoë' : `Customer ${n}`, lastName: n === 137 ? 'Martins' : 'Smith', city: n === 137 ? 'Porto' : 'Amsterdam' };
    const saved = await app.booted.host.invoke('drafts:save', { projectId: project.projectId, fields: { recipient, models: [], shippingMethod: null, orderContent: emptyOrderContent() } });
    assert.ok(saved.ok, JSON.stringify(saved));
  }
  const list = ordersPage(app.page);
  await workspace(app.page).nav('orders');
  await expect(list.table).visible();
  await expect(list.count).hasText('250 orders');
  const drawn = await list.rows.count();
  assert.ok(drawn > 10 && drawn < 60, `${drawn} rows drawn of 250`);
  // By recipient, numbers in number order: Customer 2 before Customer 10, Zoë last.
  await list.sortBy('recipient').click();
  await expect(list.rowAt(1)).hasText('Customer 2 Smith');
  await list.table.evaluate((table) => (table.scrollTop = table.scrollHeight));
  await expect(list.rowAt(249)).hasText('Zoë Martins');
  assert.ok((await list.rows.count()) < 60);

  await list.search.fill('zoe porto');
  await list.listsRows(1);
  await expect(list.rows.first()).hasText('Zoë Martins');
  await expect(list.tab('all')).hasText('All 1');
  await app.screenshot('orders-found');
  // What is listed exports as a spreadsheet: the header and that one order.
  const file = await list.exportListed();
  assert.match(file.suggestedFilename(), /^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await file.path())!, 'utf8')).trim().split('\r\n');
  assert.equal(lines.length, 2);
  assert.match(lines[1], /"Draft",.*"Zoë","Martins"/);
  await list.search.fill('nobody');
  await expect(list.none).hasText('No order matches “nobody”.');
  await app.close();
});

test('a rejected order shows the service message, and is fixed and resent', async () => {
  const app = await openApp(browser);
  const { list, form } = await completeNewOrder(app);
  // A typo in a second model's ID is caught as it is added, and the line of a real one carries its name.
  await form.addModelById('0f8fad5b-d9cb-469f-a165-70867728950e');
  await expect(form.modelNotFound).hasText('No model with the ID 0f8fad5b-d9cb-469f-a165-70867728950e');
  assert.equal(await form.modelLines.count(), 1);
  await expect(form.modelLines.first()).hasText('Moon-binary');
  // With the service unable to look it up (as offline), the ID is taken as it is, and the service then says.
  app.booted.sandbox?.faults.set({ kind: 'status-5xx', path: '/Model3D/GetModelData' });
  try {
    await form.addModel.click();
    await form.modelLines.nth(1).waitFor();
  } finally {
    app.booted.sandbox?.faults.clear();
  }
  await form.place.click();
  await list.open(list.row('rejected'));
  const order = orderPage(app.page);
  await expect(order.problem).hasText('does not exist');
  await expect(order.problem).hasText('then place it again');
  await expect(order.timeline).hasText('Send attempt 1: rejected by the service');
  // The model the library does not have is said to be so, its ID under it once.
  await expect(order.models.nth(1)).hasText('Not in the project’s library');
  assert.equal(((await order.models.nth(1).textContent()) ?? '').split('0f8fad5b-d9cb-469f-a165-70867728950e').length - 1, 1);
  // Sending it again unchanged would only be rejected again: Fix comes first, Retry beside it.
  assert.equal(await order.action('place-from-list').count(), 0);
  await expect(order.action('retry-order')).visible();
  await app.screenshot('17-order-rejected');
  await order.action('edit-order').click();
  await expect(form.problem).visible();
  // The model the service refused is marked at its own line.
  await expect(form.modelLines.nth(1)).hasText('The service refused this model');
  assert.doesNotMatch((await form.modelLines.first().textContent()) ?? '', /refused/);
  await form.removeModelLine(1);
  await form.place.click();
  await expect(list.row('placed')).visible();
  assert.equal((await app.booted.sandbox?.operator.listOrders())?.length, 1);
  await app.close();
});

test('what was typed in a new order survives the session ending under the form, and comes back after sign-in', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const { list, form } = await startNewOrder(app, { firstName: 'Katherine', lastName: 'Johnson' });
  await workspace(app.page).signOut();
  await signInPage(app.page).signInWithDemo();
  // Signed in again, the app is back on the form, with what was typed.
  await expect(form.restored).visible();
  await app.screenshot('order-restored');
  assert.equal(await form.field('firstName').inputValue(), 'Katherine');
  // Given back once: the next new order starts empty.
  await workspace(app.page).nav('orders');
  await list.newOrder.click();
  assert.equal(await form.field('firstName').inputValue(), '');
});

test('an order left half-written is kept as a draft, opened again from the notice, and Discard leaves without keeping', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const { list, form } = await startNewOrder(app, { firstName: 'Ada', lastName: 'Lovelace' });
  // Going elsewhere mid-order, as to look something up in the library.
  await workspace(app.page).nav('library');
  const shell = workspace(app.page);
  await expect(shell.keptDraft).hasText('The order you were writing for Ada Lovelace was kept as a draft.');
  await app.screenshot('order-kept-draft');
  await shell.openKeptDraft();
  // The draft loads into the form a moment after it opens.
  await form.holds('firstName', 'Ada');
  await form.field('lastName').fill('King');
  await form.discardChanges();
  await expect(list.row('draft')).hasText('Ada Lovelace');
  assert.equal(await list.row('draft').count(), 1, 'one draft, not one per leaving');
  assert.equal(await shell.keptDraft.count(), 0);

  // A new order left untouched leaves nothing behind.
  await list.newOrder.click();
  await workspace(app.page).nav('library');
  await workspace(app.page).nav('orders');
  assert.equal(await list.row('draft').count(), 1);

  // Settings opened over a half-written order: back from them, the order is there as it was typed.
  await list.newOrder.click();
  await form.fillRecipient({ firstName: 'Grace' });
  await shell.openSettings();
  await settingsPage(app.page).close.click();
  await form.holds('firstName', 'Grace');
  assert.equal(await list.row('draft').count(), 0, 'the form, not the list');
});

test('what is typed while the form is still opening is the user\'s too: kept when the form is left, and a draft is read-only until it has loaded', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  // One order placed, so that the form has recent recipients to fetch as it opens.
  const { list, form } = await completeNewOrder(app);
  await form.place.click();
  await expect(list.row('placed')).visible();

  // The bridge's answers to these channels wait until released, as a busy host's would.
  const replies = await holdReplies(app, ['drafts:addressBook', 'drafts:get']);
  await workspace(app.page).nav('orders');
  await list.newOrder.click();
  await form.field('firstName').fill('Ada');
  replies.release();
  await expect(form.addressBook).visible();
  await workspace(app.page).nav('library');
  await expect(workspace(app.page).keptDraft).hasText('The order you were writing for Ada was kept as a draft.');

  replies.hold();
  await workspace(app.page).openKeptDraft();
  await expect(form.view).visible();
  assert.equal(await form.field('firstName').isDisabled(), true, 'not typed into before the draft is there to overwrite it');
  await app.screenshot('order-draft-opening');
  replies.release();
  await form.holds('firstName', 'Ada');
  assert.equal(await form.field('firstName').isDisabled(), false);
});

/**
 * Holds the host's answers to calls on these channels while `hold` is on (from the start), by standing
 * between the page and the browser-mode bridge. The page is reloaded to connect through it.
 */
async function holdReplies(app: AppUnderTest, channels: string[]) {
  const waiting: (() => void)[] = [];
  let holding = true;
  await app.page.routeWebSocket(/\/bridge/, (page) => {
    const host = page.connectToServer();
    const heldIds = new Set<number>();
    page.onMessage((message) => {
      const call = JSON.parse(String(message)) as { id: number; channel: string };
      if (channels.includes(call.channel)) heldIds.add(call.id);
      host.send(message);
    });
    host.onMessage((message) => {
      const id = typeof message === 'string' ? (JSON.parse(message) as { id?: number }).id : undefined;
      if (!holding || id === undefined || !heldIds.has(id)) return page.send(message);
      waiting.push(() => page.send(message));
    });
  });
  await app.page.reload();
  await expect(projectsPage(app.page).home).visible();
  return {
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const send of waiting.splice(0)) send();
    },
  };
}

test('an order being typed when the page reloads (or the window closes) is a draft at the next start', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const { list } = await startNewOrder(app, { firstName: 'Mary', lastName: 'Jackson' });
  // No leaving the form, so no teardown: what reached the host as it was typed is all there is.
  // The app opens again on the project it was in.
  await app.page.reload();
  await expect(workspace(app.page).keptDraft).hasText('The order you were writing for Mary Jackson was kept as a draft.');
  await workspace(app.page).nav('orders');
  await expect(list.row('draft')).hasText('Mary Jackson');
  assert.equal(await list.row('draft').count(), 1);
  // Once: a second reload finds nothing more to keep.
  await app.page.reload();
  await workspace(app.page).nav('orders');
  await expect(list.row('draft')).hasText('Mary Jackson');
  assert.equal(await list.row('draft').count(), 1);
  assert.equal(await workspace(app.page).keptDraft.count(), 0);
});
