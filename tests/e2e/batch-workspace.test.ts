// A batch after its send: a workspace whose rows left (invalid, or rejected by the service) are fixed
// and sent from it; and a file imported again that tells the truth about rows placed after a fix in
// PrintDesk ("Placed as …, edited in PrintDesk: e-mail"), never calling them invalid.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { login, call } from '../../sandbox/testing.ts';
import { CORPUS as corpus } from '../corpus.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openAppOnProject } from './harness.ts';
import { batchPage, csvFile, openBatchPage } from './pages/batch.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

const HEADER = 'orderReference,firstName,lastName,streetAddress,postal,city,country,email,modelId,quantity';
const EMAIL = 7;
const MODEL = 8;

test('after its send a batch stays a workspace: the invalid and the rejected rows are fixed in it and sent from it', async (t) => {
  const { app, sandbox, project } = await openAppOnProject(browser, t);
  const cube = await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Cube-binary.stl'));
  const star = await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Star-binary.stl'));
  const file = await csvFile('workspace.csv', [
    HEADER,
    `WS-1,Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,${cube.modelId},1`,
    `WS-2,Alan,Turing,Unter den Linden 1,10117,Berlin,DE,alan@example.com,${cube.modelId},2`,
    `WS-3,Grace,Hopper,Damrak 1,1012 LG,Amsterdam,NL,grace-at-example.com,${cube.modelId},1`,
    `WS-4,Marie,Curie,Rue Cuvier 1,75005,Paris,FR,marie@example.com,${star.modelId},1`,
  ].join('\n'));
  const page = app.page;
  const batch = batchPage(page);
  await openBatchPage(page);
  await batch.importFile(file);
  await expect(batch.send).hasText('Send the 3 valid orders');

  // A rejection only the service gives, staged: the model of WS-4 is deleted while the orders are on their way.
  const { accessToken } = await login(sandbox.baseUrl, sandbox.demoAccount);
  sandbox.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: 800 });
  await batch.sendConfirmed();
  while (sandbox.faults.list().every((fault) => fault.hits === 0)) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal((await call(sandbox.baseUrl, 'DELETE', `/Model3D/DeleteModel?modelId=${star.modelId}`, { token: accessToken })).status, 200);
  await expect(batch.report).visible();
  sandbox.faults.clear();

  await expect(batch.tally('placed')).hasText('2');
  await expect(batch.tally('left')).hasText('1');
  await expect(batch.tally('rejected')).hasText('1');
  await expect(batch.tally('cost')).hasText('€');
  await app.screenshot('batch-workspace-report');

  // The rows left, in the same batch: the invalid one and the rejected one, saying why.
  await batch.fixRowsLeft.click();
  await expect(batch.summary).visible();
  await expect(batch.rows).count(2);
  await expect(batch.table).hasText('Not an email address');
  await expect(batch.rejected).hasText(/Rejected by the service: Model [0-9a-f-]+ does not exist/);
  await app.screenshot('batch-workspace-fix');
  await batch.fixCell(4, EMAIL, 'grace@example.com');
  await batch.fixCell(5, MODEL, cube.modelId);
  await expect(batch.summary).hasText('All rows are valid');
  await expect(batch.send).hasText('Send 2 orders');
  await batch.sendConfirmed();
  await expect(batch.report).visible();
  await expect(batch.tally('placed')).hasText('4');
  await expect(batch.tally('left')).hasText('0');
  await expect(batch.tally('rejected')).hasText('0');
  await expect(batch.fixRowsLeft).hidden();

  const orders = await sandbox.operator.listOrders({ projectId: project.projectId });
  assert.deepEqual(orders.map((o) => o.orderReference).sort(), ['WS-1', 'WS-2', 'WS-3', 'WS-4'], 'each order placed once, from one batch');
  assert.equal(orders.find((o) => o.orderReference === 'WS-3')?.email, 'grace@example.com');
  await batch.allBatches();
  await expect(batch.items).count(1);
});

test('a file imported again tells the truth: a row placed after a fix in PrintDesk reads "Placed as …", a row changed since is flagged', async (t) => {
  const { app, sandbox, project } = await openAppOnProject(browser, t);
  const cube = await sandbox.operator.addModel(project.projectId, join(corpus, 'stl', 'Cube-binary.stl'));
  const rows = [
    `RI-1,Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,${cube.modelId},1`,
    `RI-2,Grace,Hopper,Damrak 1,1012 LG,Amsterdam,NL,grace-at-example.com,${cube.modelId},1`,
  ];
  const file = await csvFile('shop.csv', [HEADER, ...rows].join('\n'));
  const page = app.page;
  const batch = batchPage(page);
  await openBatchPage(page);
  await batch.importFile(file);
  await batch.fixCell(3, EMAIL, 'grace@example.com');
  await expect(batch.send).hasText('Send 2 orders');
  await batch.sendConfirmed();
  await expect(batch.placed).hasText('2 orders placed');
  const placed = await sandbox.operator.listOrders({ projectId: project.projectId });
  const grace = placed.find((o) => o.orderReference === 'RI-2');
  assert.ok(grace);

  // The spreadsheet as it was (the bad e-mail still in it), and RI-1's street changed since.
  const again = await csvFile('shop.csv', [HEADER, rows[0].replace('Keizersgracht 1', 'Herengracht 5'), rows[1]].join('\n'));
  await batch.importFile(again);
  await expect(batch.summary).visible();
  await expect(batch.problems).hasText('1 row has problems');
  await expect(batch.table).hasText(`Placed as ${grace.orderId} (edited in PrintDesk: e-mail)`);
  await expect(batch.table).hasText('address (Keizersgracht 1, not Herengracht 5)');
  assert.doesNotMatch((await batch.rows.nth(1).textContent()) ?? '', /Not an email address/);
  await app.screenshot('batch-reimport-truth');
  await expect(batch.send).hasText('Nothing new to send');
});
