// The order form holds back only what the service would refuse. A rule of PrintDesk's own (a province for
// Spain, a postal code's shape, a phone number's length) is a warning beside its field, and the order is placed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { CORPUS as corpus } from '../corpus.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openAppOnProject } from './harness.ts';
import { orderForm } from './pages/order-form.ts';
import { ordersPage } from './pages/orders.ts';
import { workspace } from './pages/workspace.ts';
import { projectsPage } from './pages/projects.ts';
import { signInPage } from './pages/sign-in.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

/** Signed in with the demo account, a new order's form in the project. */
async function newOrderForm(page: Page) {
  await signInPage(page).dismissVaultNotice();
  await signInPage(page).signInWithDemo();
  await projectsPage(page).open();
  await workspace(page).nav('orders');
  await ordersPage(page).newOrder.click();
  return orderForm(page);
}

test('an order to Spain without a province, with a short phone number, is warned about and placed', async (t) => {
  const { app, sandbox, project } = await openAppOnProject(browser, t);
  const model = await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Moon-binary.stl'));
  const page = app.page;
  const form = await newOrderForm(page);
  await form.fillWithModel({ firstName: 'Lucía', lastName: 'Fernández', streetAddress: 'Calle Mayor 7', postal: '2801', city: 'Madrid', country: 'Spain', email: 'lucia@example.es', phoneNumber: '+34 91 12' }, model.modelId);
  // Said once a field is left, not while it is typed.
  await form.field('countryState').focus();
  await form.field('email').focus();
  const warnings = form.fieldWarnings;
  await expect(warnings.filter({ hasText: 'usually want a state or province' })).visible();
  const said = await warnings.allTextContents();
  assert.ok(said.some((w) => /postal code of Spain/.test(w)), said.join(' | '));
  assert.ok(said.some((w) => /Too short for a phone number of Spain/.test(w)), said.join(' | '));
  assert.equal(await form.fieldErrors.count(), 0);
  await app.screenshot('15-order-form-warnings');
  await form.place.click();
  await expect(ordersPage(page).row('placed')).visible();
  const [order] = await sandbox.operator.listOrders({ projectId: project.projectId });
  assert.deepEqual([order.country, order.countryState, order.postal, order.phoneNumber], ['ES', null, '2801', '+34 91 12']);
});

test('a phone number the service would refuse is told, with why, once its field is left, before Place', async (t) => {
  const { app } = await openAppOnProject(browser, t);
  const page = app.page;
  const form = await newOrderForm(page);
  await form.field('phoneNumber').fill('+44 1');
  // Typed, not yet left: nothing said. Left: too short, and the empty fields passed are not called required.
  assert.equal(await form.fieldErrors.count(), 0);
  await form.field('email').focus();
  await expect(form.fieldErrors).hasText('Too short: the service takes 5 to 30 digits and signs after the +');
  assert.equal(await form.fieldErrors.count(), 1);
  await form.field('phoneNumber').fill('+44 1234 ext 5');
  await form.field('email').focus();
  await expect(form.fieldErrors).hasText('leave out extensions and letters');
});
