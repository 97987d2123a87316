// Ordering offline as a mail client's outbox sends mail: with Work offline and with the service cut off by a
// sandbox fault, a new order is placed with a method seen before or a rule, waits in the Outbox, and is
// placed once when the service answers, at no more than the price the user agreed to. The sandbox's own
// records say how many orders were placed.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { openDemoProject, RECIPIENT } from './demo.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp, type AppUnderTest } from './harness.ts';
import { confirmDialog } from './pages/dialog.ts';
import { orderForm } from './pages/order-form.ts';
import { orderPage } from './pages/order-page.ts';
import { ordersPage } from './pages/orders.ts';
import { projectsPage } from './pages/projects.ts';
import { quotePage } from './pages/quote.ts';
import { workspace } from './pages/workspace.ts';
import { settingsPage } from './pages/settings.ts';
import { signInPage } from './pages/sign-in.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

async function demoApp(t: TestContext) {
  const app = await openApp(browser);
  t.after(() => app.close());
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  const modelId = await openDemoProject(app);
  const [project] = await sandbox.operator.listProjects();
  const ordersFor = async (reference: string) => (await sandbox.operator.listOrders({ projectId: project.projectId })).filter((o) => o.orderReference === reference);
  return { app, sandbox, modelId, ordersFor };
}

/** A new order for the demo recipient and the model, its shipping not chosen yet. */
async function newOrder(app: AppUnderTest, modelId: string) {
  const form = orderForm(app.page);
  await workspace(app.page).nav('orders');
  await ordersPage(app.page).newOrder.click();
  await form.fillRecipient(RECIPIENT);
  await form.addModelById(modelId);
  await form.modelLines.first().waitFor();
  return form;
}

async function referenceOf(app: AppUnderTest, state: string): Promise<string> {
  const text = (await ordersPage(app.page).row(state).first().textContent()) ?? '';
  const reference = /PD-[0-9a-f-]{36}/.exec(text)?.[0];
  assert.ok(reference, text);
  return reference;
}

test('Work offline: a new order placed with a rule waits without a call, and is placed exactly once when switched off', { timeout: 90_000 }, async (t) => {
  const { app, sandbox, modelId, ordersFor } = await demoApp(t);
  const settings = settingsPage(app.page);
  const shell = workspace(app.page);
  // Settings keep the sidebar, as every view does.
  await shell.nav('settings');
  await expect(settings.view).visible();
  await expect(shell.navItem('library')).visible();
  await settings.workOffline.check();
  await expect(shell.offlineBanner).hasText('Working offline');
  await app.screenshot('offline-settings');
  // From here on, every request that reaches the sandbox is counted.
  const counter = sandbox.faults.add({ kind: 'latency', ms: 0 });

  const form = await newOrder(app, modelId);
  // No price has been seen for this parcel: a rule, and the most the user will pay.
  await expect(form.shippingHint).hasText('No price has been seen');
  await form.rule.selectOption('cheapest');
  await expect(form.ruleOutcome).hasText('holds it until you accept the price');
  await form.ceiling.fill('100');
  await expect(form.ruleOutcome).hasText('places it if the method it picks costs €100.00 or less');
  await app.screenshot('offline-order-rule');
  await form.place.click();

  const list = ordersPage(app.page);
  // Shown where it waits, and said: the list of all, sorted by when placed, would put it last.
  await expect(list.tab('outbox')).hasAttribute('aria-pressed', 'true');
  await expect(list.waitingNotice).hasText(/waits in the Outbox: you are working offline\. It is sent when you work online again\./);
  await expect(list.row('queued')).hasText('Cheapest, at most €100.00');
  await expect(shell.outboxCount).hasText('1');
  await expect(shell.offlineBanner).hasText('1 order in this project is waiting.');
  await app.screenshot('offline-outbox-held');
  const reference = await referenceOf(app, 'queued');
  // Its page says why it waits, and by which rule its method is picked.
  const order = orderPage(app.page);
  await list.open(list.row('queued'));
  await expect(order.timeline).hasText('Held while you work offline');
  await expect(order.rule).hasText('Cheapest, at most €100.00');
  await order.back.click();
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(sandbox.faults.list().find((f) => f.id === counter.id)?.hits, 0, 'no call to the service while working offline');

  await shell.workOnline.click();
  await expect(shell.toast).hasText('1 order placed');
  await list.tab('all').click();
  await expect(list.row('placed')).visible();
  await app.screenshot('offline-placed-note');
  await expect(shell.outboxCount).hidden();
  const placed = await ordersFor(reference);
  assert.equal(placed.length, 1, 'placed exactly once');
  // The rule chose among what the service offered when the order went: its cheapest.
  const now = await app.booted.host.invoke('quotes:get', { country: 'NL', models: [{ modelId, quantity: 1 }] });
  assert.ok(now.ok);
  const cheapest = [...(now.value as { methods: { shippingMethodId: number; price: number }[] }).methods].sort((a, b) => a.price - b.price)[0];
  assert.equal(placed[0].shippingMethod, cheapest.shippingMethodId);
});

test('signing out in one project names the orders waiting in the outbox of another, which stay for the account', { timeout: 90_000 }, async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  await sandbox.operator.createProject('Spare parts', { assign: DEMO_EMAIL });
  const modelId = await openDemoProject(app);
  const shell = workspace(app.page);
  await shell.nav('settings');
  await settingsPage(app.page).workOffline.check();
  const form = await newOrder(app, modelId);
  await form.rule.selectOption('cheapest');
  await form.place.click();
  await expect(ordersPage(app.page).row('queued')).visible();
  // In the other project, nothing waits; in the account's outbox, the order placed in the first one does.
  await projectsPage(app.page).switchProject.click();
  await projectsPage(app.page).open('Spare parts');
  await expect(projectsPage(app.page).switchProject).hasText('Spare parts');
  await shell.signOut();
  await expect(confirmDialog(app.page).view).hasText(`1 order waits in the outbox of another project. It stays on this computer and is sent when ${DEMO_EMAIL} signs in again`);
  await confirmDialog(app.page).no();
  await expect(shell.account).visible();
});

test('a sandbox fault cuts the service off: a quote seen before stands in "as of" its time, a method from it waits in the Outbox, and goes once the service answers', { timeout: 90_000 }, async (t) => {
  const { app, sandbox, modelId, ordersFor } = await demoApp(t);
  const shell = workspace(app.page);
  const quote = quotePage(app.page);
  // Online: a quote for the model to the Netherlands, kept for later.
  await shell.nav('quote');
  await quote.modeModels.check();
  await quote.addModelNamed('moon');
  await expect(quote.modelLines).hasText('Moon-binary');
  await quote.pickCountry('NLD');
  await quote.submit.click();
  await expect(quote.result).visible();

  sandbox.faults.set({ kind: 'reset-before' });
  // The Quote view, asked again: the prices last seen, as of when.
  await quote.submit.click();
  await expect(quote.asOf).hasText(/As of (today|\w+ \d+) at \d/);
  await expect(shell.offlineBanner).hasText('The service cannot be reached');
  // And the country's last quotes, for what they were for.
  await quote.modePackage.check();
  await expect(quote.seenQuoteAsOf.first()).hasText(/As of (today|\w+ \d+) at \d/);
  await expect(quote.seenQuotes).hasText('for 1 × Moon-binary');
  await app.screenshot('offline-quote-as-of');

  const form = await newOrder(app, modelId);
  await form.loadMethods.click();
  await expect(form.quoteAsOf).hasText('Prices as of');
  await form.chooseMethod.first().click();
  await app.screenshot('offline-order-seen-method');
  await form.place.click();
  const list = ordersPage(app.page);
  const order = orderPage(app.page);
  await expect(list.waitingNotice).hasText('waits in the Outbox: the service cannot be reached now. It is sent as soon as the service answers.');
  const reference = await referenceOf(app, 'queued');
  await list.open(list.row('queued'));
  await expect(order.timeline).hasText('It goes as soon as the service can be reached');
  await order.back.click();
  assert.equal((await ordersFor(reference)).length, 0);

  sandbox.faults.clear();
  await list.tab('all').click();
  await list.row('placed').waitFor({ timeout: 30_000 });
  await expect(shell.toast).hasText('1 order placed');
  assert.equal((await ordersFor(reference)).length, 1, 'placed exactly once');
  await expect(shell.offlineBanner).hidden();
});

test('a price above the most the user agreed to pay holds the order with the old and new price; accepted, it is placed once', { timeout: 90_000 }, async (t) => {
  const { app, modelId, ordersFor } = await demoApp(t);
  const shell = workspace(app.page);
  await shell.nav('settings');
  await settingsPage(app.page).workOffline.check();
  const form = await newOrder(app, modelId);
  await form.ruleByMethod('DHL', 'parcel');
  await form.ceiling.fill('1,00');
  await form.place.click();
  const list = ordersPage(app.page);
  await expect(list.row('queued')).visible();
  const reference = await referenceOf(app, 'queued');

  await shell.workOnline.click();
  // Held for the user: said once the outbox is empty.
  await expect(shell.toast).hasText('1 order needs your attention');
  await list.tab('attention').click();
  const order = orderPage(app.page);
  await list.open(list.row('needs-attention'));
  await expect(order.problem).hasText('DHL parcel now costs more than the most you agreed to pay');
  await expect(order.problem).hasText(/Was €1\.00, now €\d+\.\d\d\./);
  await app.screenshot('offline-ceiling-exceeded');
  assert.equal((await ordersFor(reference)).length, 0, 'not placed at a price not agreed to');
  await order.action('accept-changes').click();
  await expect(order.serviceOrderId).visible();
  await order.back.click();
  await list.tab('placed').click();
  await expect(list.row('placed')).visible();
  const placed = await ordersFor(reference);
  assert.equal(placed.length, 1);
  assert.equal(placed[0].shippingMethod, 201);
});

test('message: the service cannot be reached (the sandbox runs, its connections are cut)', async (t) => {
  const { app, sandbox } = await demoApp(t);
  sandbox.faults.set({ kind: 'reset-before' });
  await quoteParcel(app);
  const error = quotePage(app.page).error;
  await expect(error).hasText('The service cannot be reached');
  await expect(error).hasText('Check your connection');
  assert.equal((await error.textContent())?.includes('sandbox'), false, 'the sandbox did not stop');
  await expect(workspace(app.page).offlineBanner).hasText('The service cannot be reached');
  await app.screenshot('message-unreachable');
});

test('message: the embedded sandbox stopped (only when it did)', async (t) => {
  const { app, sandbox } = await demoApp(t);
  await sandbox.close();
  app.booted.sandbox = null;
  await quoteParcel(app);
  await expect(quotePage(app.page).error).hasText('The embedded sandbox stopped');
  await expect(quotePage(app.page).error).hasText('Restart PrintDesk');
  await expect(workspace(app.page).offlineBanner).hasText('The embedded sandbox stopped');
  await app.screenshot('message-sandbox-stopped');
});

test('message: you are working offline, with the way back online', async (t) => {
  const { app } = await demoApp(t);
  await workspace(app.page).nav('settings');
  await settingsPage(app.page).workOffline.check();
  await quoteParcel(app);
  const quote = quotePage(app.page);
  await expect(quote.error).hasText('You are working offline');
  await quote.workOnlineFromError();
  await expect(workspace(app.page).offlineBanner).hidden();
  await quote.submit.click();
  await expect(quotePage(app.page).result).visible();
});

test('Work online pressed from the keyboard leaves the focus in the view, where Tab goes on; each view opens at its top', async (t) => {
  const { app } = await demoApp(t);
  const shell = workspace(app.page);
  const view = app.page.getByTestId('view');
  await shell.nav('settings');
  // Settings scrolled down, then left and opened again: at its top, its heading in sight.
  await view.evaluate((box) => (box.scrollTop = box.scrollHeight));
  assert.ok((await view.evaluate((box) => box.scrollTop)) > 0, 'the settings scroll at this size');
  await settingsPage(app.page).workOffline.check();
  await shell.nav('quote');
  assert.equal(await view.evaluate((box) => box.scrollTop), 0);
  // The banner's button goes with the banner: the focus is not left on the page's body.
  await shell.workOnline.focus();
  await app.page.keyboard.press('Enter');
  await expect(shell.offlineBanner).hidden();
  await app.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'view', null, { timeout: 5_000 });
  await app.page.keyboard.press('Tab');
  assert.ok(await app.page.evaluate(() => !!document.activeElement?.closest('[data-testid="view"]')), 'Tab goes on in the view');
});

test('message: you were signed out (the session ended on its own)', async (t) => {
  const app = await openApp(browser, { accessTokenTtlSeconds: 1, refreshTokenTtlSeconds: 2 });
  t.after(() => app.close());
  await openDemoProject(app);
  await new Promise((resolve) => setTimeout(resolve, 3_200));
  await workspace(app.page).nav('library');
  const ended = signInPage(app.page).sessionEnded;
  await expect(ended).hasText('You were signed out');
  await expect(ended).hasText('Your session has expired');
  await app.screenshot('message-signed-out');
});

test('message: the service refused (no access to the project any more)', async (t) => {
  const { app, sandbox } = await demoApp(t);
  const quote = quotePage(app.page);
  await workspace(app.page).nav('quote');
  await quote.modeModels.check();
  await quote.addModelNamed('moon');
  await expect(quote.modelLines).hasText('Moon-binary');
  await quote.pickCountry('NLD');
  const [project] = await sandbox.operator.listProjects();
  await sandbox.operator.unassign(project.projectId, 'demo@printdesk.test');
  await quote.submit.click();
  const error = quote.error;
  await expect(error).hasText('The service refused: no access');
  assert.equal((await error.textContent())?.includes('cannot be reached'), false);
  await app.screenshot('message-refused');
});

test('a form that needs attention names the field and takes the focus there, from the form and from Place in the list', async (t) => {
  const { app, modelId } = await demoApp(t);
  const form = await newOrder(app, modelId);
  await form.field('email').fill('grace@');
  await form.loadMethods.click();
  await form.chooseMethod.first().click();
  await form.saveDraft.click();
  await expect(form.saved).visible();
  await workspace(app.page).nav('orders');
  const list = ordersPage(app.page);
  await list.open(list.row('draft'));
  await orderPage(app.page).action('place-from-list').click();
  // Not a notice over the list that "some fields" need attention: the order, the field named, the focus on it.
  await expect(form.formProblems).hasText('One field needs attention before this order can be placed: Email.');
  await form.focusIn('email');
  assert.equal(await list.actionError.count(), 0);
  await app.screenshot('place-from-list-names-field');
  await form.field('email').fill(RECIPIENT.email);
  await form.place.click();
  await expect(list.row('placed')).visible();
});

/** Asks the Quote view for a parcel to Germany (never quoted here). */
async function quoteParcel(app: AppUnderTest) {
  const quote = quotePage(app.page);
  await workspace(app.page).nav('quote');
  await quote.modePackage.check();
  await quote.pickCountry('germ');
  await quote.weight.fill('800');
  await quote.submit.click();
}

test('in browser mode with notifications allowed, the browser says "1 order placed", not a note in the page', async (t) => {
  const { app, modelId, ordersFor } = await demoApp(t);
  // The browser's notifications, recorded: a headless one shows none.
  await app.page.addInitScript(() => {
    const shown: string[] = [];
    Object.assign(window, { shownNotifications: shown });
    class Recorded {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      constructor(title: string, options?: { body?: string }) {
        shown.push(`${title}: ${options?.body ?? ''}`);
      }
    }
    Object.assign(window, { Notification: Recorded });
  });
  await app.page.reload();
  await expect(workspace(app.page).navItem('orders')).visible();
  const host = app.booted.host;
  const [project] = (await app.booted.sandbox?.operator.listProjects()) ?? [];
  assert.ok((await host.invoke('settings:update', { workOffline: true })).ok);
  const fields = { recipient: { ...RECIPIENT, country: 'NL', countryState: '' }, models: [{ modelId, quantity: 1 }], shippingMethod: null, shippingRule: { choice: { kind: 'rule', rule: 'cheapest' }, ceiling: 100_00, seenAt: null }, orderContent: { ConfigIds: [], ExternalConfigIds: [], StockIds: [] } };
  const saved = await host.invoke('drafts:save', { projectId: project.projectId, fields });
  assert.ok(saved.ok, JSON.stringify(saved));
  const { id, orderReference } = saved.value as { id: string; orderReference: string };
  assert.ok((await host.invoke('outbox:place', { id })).ok);
  assert.ok((await host.invoke('settings:update', { workOffline: false })).ok);
  await app.page.waitForFunction(() => (window as unknown as { shownNotifications: string[] }).shownNotifications.length === 1, null, { timeout: 30_000 });
  assert.deepEqual(await app.page.evaluate(() => (window as unknown as { shownNotifications: string[] }).shownNotifications), ['1 order placed: The Outbox sent the orders that waited for the service.']);
  assert.equal(await workspace(app.page).toast.count(), 0);
  assert.equal((await ordersFor(orderReference)).length, 1);
});
