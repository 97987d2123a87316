// An order's own page: what it is (recipient, models with thumbnails, shipping, the batch row it came
// from), what happened to it (a timeline from drafting to the service's latest status) and what can be
// done with it where it stands.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openAppOnProject } from './harness.ts';
import { batchPage } from './pages/batch.ts';
import { confirmDialog } from './pages/dialog.ts';
import { orderForm } from './pages/order-form.ts';
import { orderPage } from './pages/order-page.ts';
import { ordersPage } from './pages/orders.ts';
import { workspace } from './pages/workspace.ts';
import { invoke, sendBatch } from './seed-orders.ts';
import { signedInWithModel } from './signed-in.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

test("a batch order's page: its timeline from the batch row to the service's latest status, recipient, models, shipping, and the way back to its batch", { timeout: 120_000 }, async (t) => {
  const { app } = await openAppOnProject(browser, t);
  const { sandbox, project, model } = await signedInWithModel(app);
  const page = app.page;
  await sendBatch(app, project.projectId, model.modelId, 6, 'november.csv');
  const drafts = await invoke<Draft[]>(app, 'drafts:list', { projectId: project.projectId });
  const shop2 = drafts.find((d) => d.orderReference === 'SHOP-1002');
  assert.ok(shop2?.order?.orderId);
  // The service moves it on after it was placed; its page asks when it opens.
  await sandbox.operator.advanceOrder(shop2.order.orderId, 'in_production');

  const list = ordersPage(page);
  await workspace(page).nav('orders');
  await list.search.fill('SHOP-1002');
  await list.open(list.byReference('SHOP-1002'));
  const order = orderPage(page);
  await expect(order.reference).hasText('SHOP-1002');
  await expect(order.serviceOrderId).hasText(shop2.order.orderId);
  await expect(order.badge).hasText('In production');
  const steps = () => order.steps.allTextContents();
  await expect(order.steps.last()).hasText('Service status: In production');
  const told = (await steps()).map((s) => s.replace(/\s+/g, ' ').trim());
  assert.match(told[0], /^Drafted .*From november\.csv · row 3/);
  assert.match(told[1], /^Queued in the outbox/);
  assert.match(told[2], /^Send attempt 1: accepted by the service/);
  assert.match(told[3], new RegExp(`^Placed .*Service order ${shop2.order.orderId}`));
  assert.match(told[4], /^Service status: In production .*Was received/);

  await expect(order.recipient).hasText(`${shop2.recipient.firstName} ${shop2.recipient.lastName}`);
  await expect(order.recipient).hasText(shop2.recipient.streetAddress);
  await expect(order.models).hasText('Moon-binary');
  await expect(order.modelQuantity).hasText('× 2');
  await order.thumbnailDrawn(30_000);
  await expect(order.shippingPrice).hasText('€');
  await expect(order.shippingWindow).hasText(/\w{3}, \w{3} \d+/);
  await expect(order.origin).hasText('Row 3 of november.csv');
  // What fits a placed order: cancel (the service still cancels it), duplicate; not edit or delete.
  assert.deepEqual(await order.actionNames(), ['Refresh status', 'Duplicate as new draft', 'Cancel order']);
  await page.setViewportSize({ width: 1280, height: 800 });
  await app.screenshot('order-page');

  await order.openBatch();
  await expect(batchPage(page).view).hasText('november.csv');
});

test('a placed order duplicates as a new draft under a new reference, and its cancel is recorded in its history', { timeout: 90_000 }, async (t) => {
  const { app } = await openAppOnProject(browser, t);
  const { sandbox, model } = await signedInWithModel(app);
  const page = app.page;
  const list = ordersPage(page);
  const form = orderForm(page);
  await workspace(page).nav('orders');
  await list.newOrder.click();
  await form.fillWithModel({ firstName: 'Grace', lastName: 'Hopper', streetAddress: 'Damrak 1', postal: '1012 LG', city: 'Amsterdam', country: 'Netherlands', email: 'grace@example.com' }, model.modelId);
  await form.place.click();
  await list.open(list.row('placed'));
  const order = orderPage(page);
  await expect(order.serviceOrderId).visible();
  const reference = (await order.reference.textContent()) ?? '';
  await expect(order.origin).hasText('Written in PrintDesk');

  await order.action('cancel-order').click();
  await confirmDialog(page).yes();
  await expect(order.badge).hasText('Cancelled');
  await expect(order.steps.last()).hasText('Service status: Cancelled');
  await expect(order.steps.last()).hasText('Cancelled from PrintDesk');
  // It arrives at no date now.
  await expect(order.shippingWindow).hasText('None: the order was cancelled');

  await order.action('duplicate').click();
  await expect(form.view).visible();
  await expect(form.reference).visible();
  const copy = (await form.reference.textContent()) ?? '';
  assert.notEqual(copy, reference);
  assert.equal(await form.field('lastName').inputValue(), 'Hopper');
  await form.place.click();
  // Both placed, the list has settled (a row that moves under the pointer would open another order).
  await list.listsRows(2, 'placed');
  const placed = await sandbox.operator.listOrders();
  assert.deepEqual(placed.map((o) => o.orderReference).sort(), [reference, copy].sort());
  await list.open(list.byReference(copy));
  await expect(order.steps.first()).hasText(`A copy of ${reference}`);
});
