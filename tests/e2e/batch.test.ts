import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import type { Browser } from 'playwright-core';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openAppOnProject } from './harness.ts';
import { batchPage, csvFile, openBatchPage } from './pages/batch.ts';
import { ordersPage } from './pages/orders.ts';
import { workspace } from './pages/workspace.ts';
import { CORPUS as corpus } from '../corpus.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

/** The app, its sandbox's first project, and one model in it; closed when the test ends. */
async function openWithModel(t: TestContext) {
  const { app, sandbox, project } = await openAppOnProject(browser, t);
  const model = await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Star-binary.stl'));
  return { app, sandbox, project, model };
}

test('a print shop imports a CSV, fixes a cell in place, sends the batch and exports the report', async (t) => {
  const { app, sandbox, project, model } = await openWithModel(t);
  const csv = [
    'orderReference;firstName;lastName;streetAddress;postal;city;country;email;modelId;quantity',
    `SHOP-1;Ada;Lovelace;Keizersgracht 1;1015 CJ;Amsterdam;NL;ada@example.com;${model.modelId};2`,
    `SHOP-2;Grace;Hopper;Damrak 1;1012 LG;Amsterdam;NL;grace-at-example.com;${model.modelId};1`,
    `SHOP-3;Alan;Turing;Unter den Linden 1;10117;Berlin;DE;alan@example.com;${model.modelId};1`,
    `SHOP-3;Alan;Turing;Unter den Linden 1;10117;Berlin;DE;alan@example.com;${model.modelId};3`,
  ].join('\r\n');
  const file = await csvFile('shop-orders.csv', `\uFEFF${csv}\r\n`);

  const page = app.page;
  const batch = batchPage(page);
  await openBatchPage(page);
  await expect(batch.empty).visible();
  await app.screenshot('30-batch-empty');

  await batch.importFile(file);
  await expect(batch.problems).hasText('1 row has problems');
  await expect(batch.table).hasText('Not an email address');
  await app.screenshot('31-batch-review-errors');
  // With a problem left, the one send there is leaves the order with the problem out, and says so.
  await expect(batch.send).hasText('Send the 2 valid orders');

  // Row 3 of the sheet is the second order; its e-mail is column 8.
  // Fixed in place with Enter, the view scrolled back a little from the row's end as a user reading along it has it.
  await batch.table.evaluate((table) => (table.closest('.table-wrap')!.scrollLeft -= 150));
  await batch.cell(3, 7).fill('grace@example.com');
  const fixedCell = await batch.watchCell(3, 7);
  await batch.cell(3, 7).press('Enter');
  await expect(batch.summary).hasText('All rows are valid');
  // The Problems column went with the last problem, and the view moved with the cells: the cell just
  // fixed stays where it was on screen, rather than slide under the Row column.
  const [withProblems, without] = await fixedCell();
  assert.ok(withProblems !== undefined && without !== undefined, 'the cell was seen with the Problems column and without');
  assert.ok(Math.abs(withProblems - without) <= 1, `the cell moved from ${withProblems} to ${without} px`);
  await expect(batch.send).hasText('Send 3 orders');
  await app.screenshot('32-batch-fixed');
  // Each order's price and delivery window beside its rows, before anything is sent.
  await expect(batch.rowPrices.first()).hasText('€');
  await batch.send.click();
  // Send asks first: how many orders, the shipping in all, by method and by country, and when they arrive.
  await expect(batch.confirm).visible();
  await expect(batch.confirm).hasText('Send 3 orders?');
  await expect(batch.confirmTotal).hasText('€');
  await expect(batch.confirmWindow).hasText(/\w{3}/);
  await expect(batch.confirmByCountry).hasText('Netherlands');
  await expect(batch.confirmByCountry).hasText('Germany');
  assert.ok((await batch.confirmMethods.count()) >= 1);
  const quoted = await batch.confirmTotal.textContent();
  await app.screenshot('batch-send-confirm');
  // "Not now" sends nothing; Send again asks again.
  await batch.notNow();
  await expect(batch.confirm).hidden();
  assert.equal((await sandbox.operator.listOrders({ projectId: project.projectId })).length, 0);
  await batch.sendConfirmed();
  await expect(batch.report).visible();
  await expect(batch.report).hasText('placed');
  // Each row's place as one says it: the file's code named.
  await expect(batch.report).hasText('Amsterdam, Netherlands');
  // Four rows, three orders (SHOP-3 has two models): the headline counts what the user sent.
  await expect(batch.placed).hasText('3 orders placed');
  await app.screenshot('33-batch-report');

  assert.deepEqual(await batch.outcomes(), ['placed', 'placed', 'placed', 'placed']);
  const orders = await sandbox.operator.listOrders({ projectId: project.projectId });
  assert.deepEqual(orders.map((o) => o.orderReference).sort(), ['SHOP-1', 'SHOP-2', 'SHOP-3']);
  assert.equal(orders.find((o) => o.orderReference === 'SHOP-3')?.models.length, 2);

  // The report's rows carry what each order was charged and when it arrives; together, what was confirmed.
  await expect(batch.reportPrices.first()).hasText('€');
  await expect(batch.tally('cost')).hasText(quoted ?? '');
  await expect(batch.tally('placed')).hasText('3');
  const report = await readFile((await (await batch.exportReport()).path()) as string, 'utf8');
  assert.match(report, /SHOP-2/);
  assert.match(report, /placed/);
  assert.match(report.split('\r\n')[0], /"Shipped with","Shipping cost","Currency","Delivery from","Delivery by"/);
  assert.match(report.split('\r\n')[1], /"placed","[0-9a-f-]{36}","SHOP-1","","[A-Z]+ \w+","\d+\.\d\d","EUR","\d{4}-\d\d-\d\d","\d{4}-\d\d-\d\d"/);
  // Among all batches, it says what it placed of its orders.
  await batch.allBatches();
  await expect(batch.listedItem('shop-orders.csv')).hasText(/3 orders, 3 placed · done/);
  await batch.listedItem('shop-orders.csv').getByTestId('batch-item').click();
  await expect(batch.report).visible();
  await batch.viewOrders();
  await expect(ordersPage(page).view).visible();
  assert.equal(await ordersPage(page).tab('placed').getAttribute('aria-pressed'), 'true');
});

test('a file without references: cancelled halfway, its cancelled orders are sent from the report, and picking it again opens a new batch', async (t) => {
  const { app, sandbox, project, model } = await openWithModel(t);
  const rows = Array.from({ length: 24 }, (_, i) => `Ada${i},Lovelace,Keizersgracht ${i + 1},1015 CJ,Amsterdam,NL,ada@example.com,${model.modelId},1`);
  const file = await csvFile('no-references.csv', ['firstName,lastName,streetAddress,postal,city,country,email,modelId,quantity', ...rows].join('\n'));

  const page = app.page;
  const batch = batchPage(page);
  await openBatchPage(page);
  await batch.importFile(file);
  await expect(batch.noReferenceColumn).hasText('never places a row twice');
  sandbox.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: 400 });
  try {
    await batch.sendConfirmed();
    await expect(batch.cancel).visible();
    await batch.cancel.click();
    await expect(batch.sendRest).visible();
    // The orders on their way at the cancel finish, and the report says so without being reopened.
    await expect(batch.pending).count(0);
  } finally {
    sandbox.faults.clear();
  }
  await app.screenshot('34-batch-cancelled');
  await batch.sendRestConfirmed();
  await expect(batch.placed).hasText('24 orders placed');
  const orders = await sandbox.operator.listOrders({ projectId: project.projectId });
  assert.equal(orders.length, 24);
  assert.equal(new Set(orders.map((o) => o.orderReference)).size, 24);

  // The same file picked again is a new batch (a browser fires no change for an unchanged picker), and
  // every row in it is skipped as placed.
  await batch.importFile(file);
  await expect(batch.summary).visible();
  await expect(batch.usedElsewhere).hasText('Every order of this file was sent before');
  await expect(batch.summary).hasText('Nothing new in this file');
  await app.screenshot('35-batch-sent-before');
  await expect(batch.send).hasText('Nothing new to send');
  assert.equal(await batch.send.isDisabled(), true);
  assert.equal((await sandbox.operator.listOrders({ projectId: project.projectId })).length, 24);
});

test('a file without the columns orders need says which, opens the column matching, and sends nothing', async (t) => {
  const { app } = await openWithModel(t);
  const file = await csvFile('names-only.csv', 'firstName,lastName,city\nAda,Lovelace,Amsterdam\n');
  const batch = batchPage(app.page);
  await openBatchPage(app.page);
  await batch.importFile(file);
  await expect(batch.problems).hasText('The columns need matching');
  await expect(batch.mappingProblems).hasText('No column for');
  assert.equal(await batch.columns.getAttribute('open'), '', 'the column matching is open');
  // Fields by their names, not the API's: "State / province", not countryState.
  await expect(batch.columns).hasText('State / province');
  assert.doesNotMatch((await batch.columns.textContent()) ?? '', /countryState/);
  await expect(batch.send).hasText('No valid orders to send');
  assert.equal(await batch.send.isDisabled(), true);
  await app.screenshot('36-batch-columns-missing');
});

test('a batch the service asks to wait says so and when it goes on, then finishes', async (t) => {
  const { app, sandbox, project, model } = await openWithModel(t);
  const csv = [
    'orderReference,firstName,lastName,streetAddress,postal,city,country,email,modelId,quantity',
    `W-1,Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,${model.modelId},1`,
    `W-2,Grace,Hopper,Damrak 1,1012 LG,Amsterdam,NL,grace@example.com,${model.modelId},1`,
  ].join('\n');
  const batch = batchPage(app.page);
  await openBatchPage(app.page);
  await batch.importFile(await csvFile('wait.csv', csv));
  await expect(batch.send).hasText('Send 2 orders');
  sandbox.faults.set({ kind: 'rate-limit', path: '/Order/CreateOrder', count: 2, retryAfterSeconds: 6 });
  await batch.sendConfirmed();
  await expect(batch.waiting).hasText('Nothing is on its way: the service asked to wait (a rate limit or a failure): next try in');
  await app.screenshot('batch-waiting');
  // Coming back to the view (here after a reload) shows the batch on its way, not only its line in the list.
  await app.page.reload();
  await workspace(app.page).nav('batch');
  await expect(batch.progress).hasText('Sending wait.csv');
  await expect(batch.placed).hasText('2 orders placed');
  assert.equal((await sandbox.operator.listOrders({ projectId: project.projectId })).length, 2);
});

test('in a wide file, the first bad cell and each cell reached by Shift+Tab come into view clear of the Row and Problems columns', async (t) => {
  const { app, model } = await openWithModel(t);
  const long = 'Building 4, Staircase B, Floor 3, Door 12, behind the courtyard';
  const csv = [
    'orderReference,firstName,lastName,streetAddress,streetAddress2,postal,city,country,phone,email,modelId,quantity',
    `WIDE-1,Ada,Lovelace,Keizersgracht 1,"${long}",1015 CJ,Amsterdam,NL,+31 20 123 4567,not-an-email,${model.modelId},1`,
  ].join('\n');
  await app.page.setViewportSize({ width: 900, height: 800 });
  const batch = batchPage(app.page);
  await openBatchPage(app.page);
  await batch.importFile(await csvFile('wide.csv', csv));
  await expect(batch.problems).hasText('1 row has problems');
  await expect(batch.cell(2, 9)).visible();
  await app.page.waitForTimeout(300);
  const first = await batch.cellClearance(2, 9);
  assert.ok(first.scrolled > 0, 'the table scrolled sideways to the bad cell');
  assert.ok(first.gap >= 0, `the bad cell starts ${-first.gap} px under the Problems column`);
  // From the last cell leftwards: each cell reached is brought out from under the stuck columns.
  await batch.cell(2, 11).focus();
  for (let column = 10; column >= 0; column--) {
    await app.page.keyboard.press('Shift+Tab');
    const reached = await batch.cellClearance(2, column);
    assert.ok(reached.gap >= 0, `cell ${column} reached by Shift+Tab starts ${-reached.gap} px under the Problems column`);
  }
  await batch.cell(2, 9).focus();
  await app.screenshot('batch-wide-first-problem');
});
