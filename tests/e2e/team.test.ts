// Team mode in the window: two workstations (two browser-mode apps, each its own data folder) on one team
// store and one service. What one saves shows on the other by itself, and a save over the other's is refused.
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { startPgCluster, type PgCluster } from '../pg-cluster.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { RECIPIENT } from './demo.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp } from './harness.ts';
import { orderForm } from './pages/order-form.ts';
import { orderPage } from './pages/order-page.ts';
import { orderRow, ordersPage } from './pages/orders.ts';
import { projectsPage } from './pages/projects.ts';
import { signInPage } from './pages/sign-in.ts';
import { workspace } from './pages/workspace.ts';

let browser: Browser;
let cluster: PgCluster;
// One service for the shop, as a real one would be: each app's embedded sandbox would be another service,
// and another account's drafts.
let service: TestSandbox;
before(async () => {
  [browser, cluster, service] = await Promise.all([launchChromium(), startPgCluster(), startTestSandbox()]);
});
after(async () => {
  await closeAll(browser);
  await Promise.all([cluster.stop(), service.dispose()]);
});

/** A workstation of the shop: its own data folder, the team's store, the shop's service, signed in on the project. */
async function workstation(teamStore: string) {
  const app = await openApp(browser, {}, { teamStore, service: service.baseUrl });
  await signInPage(app.page).dismissVaultNotice();
  await signInPage(app.page).signIn(DEMO_EMAIL, service.demoAccount.password);
  await projectsPage(app.page).open();
  await workspace(app.page).nav('orders');
  return app;
}

test('two workstations on one store: a draft saved on one shows on the other, and a save over the other’s is refused', { timeout: 120_000 }, async (t) => {
  const teamStore = await cluster.createDatabase();
  const one = await workstation(teamStore);
  t.after(() => one.close());
  const two = await workstation(teamStore);
  t.after(() => two.close());
  const listOnTwo = ordersPage(two.page);
  await expect(two.page.getByTestId('orders-where')).hasText(/shared with your team's workstations \(127\.0\.0\.1:\d+\/\w+\)/);
  await expect(listOnTwo.none.or(listOnTwo.empty)).visible();

  // Bench 1 drafts an order; bench 2's list shows it without being asked.
  const formOnOne = orderForm(one.page);
  await ordersPage(one.page).newOrder.click();
  await formOnOne.fillRecipient(RECIPIENT);
  await formOnOne.saveDraft.click();
  await expect(formOnOne.saved).visible();
  await expect(orderRow(listOnTwo.row('draft')).recipient).hasText('Grace Hopper');
  await two.screenshot('team-draft-from-another-workstation');

  // Bench 2 edits it; bench 1, still in the form it opened before, saves over it: refused, saying what changed.
  await orderRow(listOnTwo.row('draft')).reference.click();
  await orderPage(two.page).action('edit-order').click();
  const formOnTwo = orderForm(two.page);
  await formOnTwo.holds('city', 'Amsterdam');
  await formOnTwo.field('city').fill('Utrecht');
  await formOnTwo.saveDraft.click();
  await expect(formOnTwo.saved).visible();
  await workspace(two.page).nav('orders');

  await formOnOne.field('firstName').fill('Ada');
  await formOnOne.saveDraft.click();
  await expect(formOnOne.error).hasText(/changed elsewhere while you had it open: .*city is now “Utrecht” \(yours: “Amsterdam”\)/);
  await one.screenshot('team-save-refused');
  // Nothing was overwritten; saving again replaces it knowingly.
  await expect(orderRow(listOnTwo.row('draft')).recipient).hasText('Grace Hopper');
  await formOnOne.saveDraft.click();
  await expect(formOnOne.saved).visible();
  await expect(orderRow(listOnTwo.row('draft')).recipient).hasText('Ada Hopper');
});
