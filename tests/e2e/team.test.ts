// Team mode in the window: two workstations (two browser-mode apps, each its own data folder) on one team
// store and one service. What one saves shows on the other by itself, and a save over the other's is refused.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import type { Browser } from 'playwright-core';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { startPgCluster, type PgCluster } from '../pg-cluster.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { RECIPIENT } from './demo.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp } from './harness.ts';
import { batchPage, csvFile } from './pages/batch.ts';
import { sendClaimedElsewhere } from './team-store.ts';
import { CORPUS as corpus } from '../corpus.ts';
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

/** A shop's export of `count` orders of one model, in PrintDesk's own columns. */
function shopFile(modelId: string, count: number, prefix: string): string {
  const rows = Array.from({ length: count }, (_, i) => `${prefix}-${i};Ada;Lovelace;Keizersgracht ${i + 1};1015 CJ;Amsterdam;NL;ada${i}@example.com;${modelId};1`);
  return ['orderReference;firstName;lastName;streetAddress;postal;city;country;email;modelId;quantity', ...rows].join('\r\n');
}

/** A fresh team store, and the shop's project with a model its batches order; `placedOnce` checks the service's orders of a file. */
async function shopWithModel() {
  const teamStore = await cluster.createDatabase();
  const [project] = await service.operator.listProjects();
  const model = await service.operator.addModel(project.projectId, join(corpus, 'stl', 'Cube-binary.stl'));
  /** The service's orders under references starting so: how many, and how many references they hold. */
  const placedOnce = async (prefix: string) => {
    const placed = (await service.operator.listOrders({ projectId: project.projectId })).filter((o) => o.orderReference.startsWith(`${prefix}-`));
    return [placed.length, new Set(placed.map((o) => o.orderReference)).size];
  };
  return { teamStore, modelId: model.modelId, placedOnce };
}

/** Two workstations of the shop on a fresh store with a model (shopWithModel), each closed when the test ends. */
async function twoWorkstations(t: TestContext) {
  const shop = await shopWithModel();
  const one = await workstation(shop.teamStore);
  t.after(() => one.close());
  const two = await workstation(shop.teamStore);
  t.after(() => two.close());
  return { ...shop, one, two, onOne: batchPage(one.page), onTwo: batchPage(two.page) };
}

async function eventually(check: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 30_000;
  while (!(await check().catch(() => false)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.ok(await check(), `timed out waiting until ${what}`);
}

test('a batch sent on one workstation shows on the other as it goes: in its list, then its progress; paused there, it is held on both; resumed, both see it done', { timeout: 240_000 }, async (t) => {
  const { modelId, placedOnce, one, two, onOne, onTwo } = await twoWorkstations(t);
  await workspace(two.page).nav('batch');
  await expect(onTwo.empty).visible();

  // The service answers slowly enough that the batch is seen on its way.
  service.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: 300 });
  t.after(() => service.faults.clear());
  await workspace(one.page).nav('batch');
  await onOne.importFile(await csvFile('team-batch.csv', shopFile(modelId, 300, 'TEAM')));
  await expect(onOne.send).hasText('Send 300 orders');
  // Bench 2's list shows the batch imported on bench 1, then sending, without being asked.
  await expect(onTwo.listedState('team-batch.csv')).hasText('draft');
  await onOne.sendConfirmed();
  await expect(onTwo.listedState('team-batch.csv')).hasText('sending');
  await expect(onTwo.listedItem('team-batch.csv')).hasText(`sent by ${DEMO_EMAIL} on`);
  await two.screenshot('team-batch-list-elsewhere');

  // Opened on bench 2: its progress, its count moving as bench 1 (and bench 2's own outbox) send it.
  await onTwo.openBatch('team-batch.csv');
  await expect(onTwo.progress).visible();
  await expect(onTwo.sentBy).hasText(`Sent by ${DEMO_EMAIL} on`);
  await eventually(async () => (await onTwo.placedSoFar()) >= 10, 'bench 2 counts orders placed');
  await two.screenshot('team-batch-progress-elsewhere');

  // Paused on bench 2: bench 1 shows it paused, and neither sends more of it (what was on its way finishes).
  await onTwo.pause.click();
  await expect(onOne.resume).visible();
  let last = -1;
  await eventually(async () => {
    const now = await onTwo.placedSoFar();
    const still = now === last;
    last = now;
    if (!still) await new Promise((resolve) => setTimeout(resolve, 1_000));
    return still;
  }, 'bench 2 counts no more orders while it is paused');
  assert.ok(last < 300, `paused before its end (${last} placed)`);
  await eventually(async () => (await onOne.placedSoFar()) === last, 'bench 1 counts as many');
  await two.screenshot('team-batch-paused-elsewhere');

  // Resumed on bench 1: both see it go on to its end, and its report.
  await onOne.resume.click();
  await expect(onTwo.resume).hidden();
  await eventually(async () => (await onTwo.report.isVisible()) && (await onOne.report.isVisible()), 'both show the report');
  await expect(onTwo.placed).hasText('300 orders placed');
  await expect(onOne.placed).hasText('300 orders placed');
  assert.deepEqual(await placedOnce('TEAM'), [300, 300], 'each order placed once, by whichever workstation sent it');
});

test('Send pressed while another workstation is queuing the same batch joins it, says who, and sends it once that workstation vanished', { timeout: 180_000 }, async (t) => {
  const { teamStore, modelId, placedOnce } = await shopWithModel();
  const one = await workstation(teamStore);
  t.after(() => one.close());
  const batch = batchPage(one.page);
  await workspace(one.page).nav('batch');
  await batch.importFile(await csvFile('joined.csv', shopFile(modelId, 20, 'JOIN')));
  await batch.send.click();
  await expect(batch.confirm).visible();
  // Meanwhile bench 9 pressed Send on the same batch, and is queuing it; it will vanish before it has.
  await sendClaimedElsewhere(teamStore, 'joined.csv', 'ada@shop.example on bench-9', 6_000);
  await batch.yesSend();
  await expect(batch.joined).hasText('already being sent by ada@shop.example on bench-9');
  await expect(batch.preparing).hasText('ada@shop.example on bench-9 is checking this batch and queuing its orders');
  await one.screenshot('team-batch-joined');
  // Bench 9's claim lapses: this workstation sends the batch itself, each order once.
  await eventually(() => batch.report.isVisible(), 'the batch is sent from here, and its report shown');
  await expect(batch.placed).hasText('20 orders placed');
  assert.deepEqual(await placedOnce('JOIN'), [20, 20], 'each order placed once');
});

test('a cell fixed on one workstation shows fixed in the other’s review of the same batch, its problem gone', { timeout: 120_000 }, async (t) => {
  const { modelId, one, two, onOne, onTwo } = await twoWorkstations(t);
  // Row 3 of the sheet goes to a country that is none: a problem, in the country cell (column 6).
  const file = shopFile(modelId, 3, 'FIX').replace('FIX-1;Ada;Lovelace;Keizersgracht 2;1015 CJ;Amsterdam;NL', 'FIX-1;Ada;Lovelace;Keizersgracht 2;1015 CJ;Amsterdam;Nowhere');
  await workspace(one.page).nav('batch');
  await onOne.importFile(await csvFile('team-fix.csv', file));
  await expect(onOne.problems).hasText(/1 row/);
  await workspace(two.page).nav('batch');
  await onTwo.openBatch('team-fix.csv');
  assert.equal(await onTwo.cell(3, 6).inputValue(), 'Nowhere');
  await expect(onTwo.problems).hasText(/1 row/);

  // Fixed on bench 1: bench 2's review shows the cell as it is now, and the problem gone, without being asked.
  await onOne.fixCell(3, 6, 'NL');
  await eventually(async () => (await onTwo.cell(3, 6).inputValue()) === 'NL', "bench 2's review shows the fixed cell");
  await expect(onTwo.problems).hidden();
  await expect(onTwo.send).hasText('Send 3 orders');
  await two.screenshot('team-batch-fixed-elsewhere');
});
