// The cost before committing: the order form names the chosen method's price and delivery window, the
// outbox each waiting order's price as last quoted and how old that quote is, and a price that changed by
// the time of sending stops the order for the user's consent.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Draft, Quote } from '../../electron/contract/schemas/orders.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openAppOnProject } from './harness.ts';
import { orderForm } from './pages/order-form.ts';
import { orderPage } from './pages/order-page.ts';
import { orderRow, ordersPage } from './pages/orders.ts';
import { outbox } from './pages/outbox.ts';
import { workspace } from './pages/workspace.ts';
import { invoke, orderFields, quotesByCountry } from './seed-orders.ts';
import { signedInWithModel } from './signed-in.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

const RECIPIENT = { firstName: 'Grace', lastName: 'Hopper', streetAddress: 'Damrak 1', postal: '1012 LG', city: 'Amsterdam', country: 'Netherlands', email: 'grace@example.com' };

/** Signed in, a new order's form for the recipient and a model, its first method chosen. */
async function newOrderWithMethod(t: TestContext) {
  const { app } = await openAppOnProject(browser, t);
  const { sandbox, model, project } = await signedInWithModel(app);
  await workspace(app.page).nav('orders');
  const form = orderForm(app.page);
  await ordersPage(app.page).newOrder.click();
  await form.fillWithModel(RECIPIENT, model.modelId);
  return { app, sandbox, model, project, form };
}

test('the order form shows the chosen price and delivery window; the outbox shows each price as last quoted and its age', async (t) => {
  const { app, sandbox, form } = await newOrderWithMethod(t);
  const page = app.page;
  const list = ordersPage(page);

  // The chosen method's row and the line under the list agree: price and delivery window.
  const price = (await form.chosenPriceInList.textContent())?.trim() ?? '';
  assert.match(price, /€|EUR/);
  await expect(form.chosenPrice).hasText(price);
  await expect(form.chosenWindow).hasText(/\w{3}, \w{3} \d+/);
  await expect(form.chosenSummary).hasText('(quoted just now)');
  await form.chosenSummary.scrollIntoViewIfNeeded();
  await app.screenshot('order-form-price');

  // A saved draft opened again shows the same, without asking the service (today's "Chosen: …" alone).
  await form.saveDraft.click();
  await expect(form.saved).visible();
  await workspace(page).nav('orders');
  await list.open(list.row('draft'));
  await orderPage(page).action('edit-order').click();
  await expect(form.chosenPrice).hasText(price);
  assert.equal(await form.methods.count(), 0, 'no quote was asked for');

  // Placed while the service asks to wait an hour, it waits in the outbox at the price it was quoted.
  sandbox.faults.set({ kind: 'rate-limit', path: '/Order/CreateOrder', count: 1, retryAfterSeconds: 3600 });
  await form.place.click();
  await expect(list.row('queued')).visible();
  await outbox(page).open();
  const row = list.row('queued');
  await expect(orderRow(row).price).hasText(price);
  await expect(orderRow(row).quoteAge).hasText(/<?\d+ min/);
  assert.match((await orderRow(row).price.getAttribute('title')) ?? '', /^As quoted (just now|\d+ minutes? ago)/);
  const escaped = price.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(outbox(page).summary).hasText(new RegExp(`1 order waiting:\\s+${escaped} as last quoted, the oldest quoted (just now|\\d+ minutes? ago)`));
  await app.screenshot('outbox-prices');
  await list.open(row);
  await expect(orderPage(page).shippingPrice).hasText(`${price} as quoted`);
  sandbox.faults.clear();
});

test('a price that changed by the time of sending waits under Needs attention, says by how much, and goes once accepted', async (t) => {
  const { app } = await openAppOnProject(browser, t);
  const { sandbox, project, model } = await signedInWithModel(app);
  const page = app.page;
  // Quoted earlier at a price the service no longer asks.
  const quoted = (await quotesByCountry(app, model.modelId)).get('NL');
  assert.ok(quoted);
  const stale = { ...quoted, price: quoted.price - 100, quotedAt: new Date(Date.now() - 3 * 3_600_000).toISOString() };
  const draft = await invoke<Draft>(app, 'drafts:save', { projectId: project.projectId, fields: orderFields(0, model.modelId, stale) });

  const list = ordersPage(page);
  await workspace(page).nav('orders');
  await list.open(list.row('draft'));
  const order = orderPage(page);
  await expect(order.shippingPrice).hasText('as quoted 3 hours ago');
  await order.action('place-from-list').click();
  await expect(order.badge).hasText('Needs attention');
  await expect(order.problem).hasText('The shipping price has changed');
  await expect(order.priceChange).hasText(/Was €\d+\.\d\d, now €\d+\.\d\d\./);
  // The shipping facts say both too: the price quoted, and what the service asks now.
  await expect(order.shippingPrice).hasText(/as quoted 3 hours ago · the service asks €\d+\.\d\d now/);
  await expect(order.timeline).hasText('Send attempt 1: stopped: it needs your attention');
  assert.equal((await sandbox.operator.listOrders()).length, 0, 'nothing placed at a price not agreed');
  await app.screenshot('order-price-changed');
  await order.action('accept-changes').click();
  await expect(order.serviceOrderId).visible();
  await expect(order.timeline).hasText(/New shipping price accepted: €\d+\.\d\d → €\d+\.\d\d/);
  const [placed] = await sandbox.operator.listOrders();
  assert.equal(placed.orderReference, draft.orderReference);
  assert.equal(placed.shippingPrice, quoted.price);
});

test('a method chosen and then the parcel changed (a quantity) is priced again: the list, the line and the draft saved agree', async (t) => {
  const { app, model, project, form } = await newOrderWithMethod(t);
  const page = app.page;
  const before = (await form.chosenPrice.textContent())?.trim() ?? '';
  // Heavier: the same method costs more, and the line under the list says the new price, as the list does.
  await form.modelLines.first().getByTestId('model-quantity').fill('25');
  await page.waitForFunction((old) => document.querySelector('[data-testid="chosen-price"]')?.textContent?.trim() !== old, before, { timeout: 10_000 });
  const after = (await form.chosenPriceInList.textContent())?.trim() ?? '';
  await expect(form.chosenPrice).hasText(after);
  const cents = (text: string) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);
  // Saved, the draft carries that price, the one the service asks for 25 by the same method, not the one quoted for a single model.
  await form.saveDraft.click();
  await expect(form.saved).visible();
  const [draft] = await invoke<Draft[]>(app, 'drafts:list', { projectId: project.projectId });
  assert.equal(draft.shippingMethod?.price, cents(after));
  const quote = await invoke<Quote>(app, 'quotes:get', { country: 'NL', models: [{ modelId: model.modelId, quantity: 25 }] });
  assert.equal(quote.methods.find((m) => m.shippingMethodId === draft.shippingMethod?.shippingMethodId)?.price, cents(after));
  // Placed at once after another change, inside the pause: priced first, and not placed at a price not seen.
  await form.modelLines.first().getByTestId('model-quantity').fill('1');
  await form.place.click();
  await expect(page.getByTestId('order-error')).hasText('priced again as you changed it');
  await expect(form.chosenPrice).hasText(before);
  await page.getByTestId('order-error').scrollIntoViewIfNeeded();
  await app.screenshot('order-repriced');
  await form.place.click();
  await expect(ordersPage(page).row('placed')).visible();
});
