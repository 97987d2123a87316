// Batch ordering end to end against the sandbox: import, fix a cell, send, report; re-import
// without doubling; pause, cancel and send again; concurrency under a tight rate limit.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createBatchHost, type BatchHost } from '../batch-host.ts';
import { BatchProgress, BatchReportRow, BatchRowsPage, BatchSummary } from '../../electron/services/batch/schemas.ts';
import { DEMO_EMAIL } from '../../sandbox/seed.ts';
import { startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { CORPUS as corpus } from '../corpus.ts';

let sandbox: TestSandbox;
let projectId: string;
let cubeId: string;
let host: BatchHost;

before(async () => {
  sandbox = await startTestSandbox({ rateLimits: { default: { limit: 1_000_000, windowSeconds: 60 }, 'Order/CreateOrder': { limit: 20, windowSeconds: 1 } } });
  projectId = (await sandbox.operator.listProjects())[0].projectId;
  cubeId = (await sandbox.operator.addModel(projectId, join(corpus, 'stl', 'Cube-binary.stl'))).modelId;
  await sandbox.operator.addModel(projectId, join(corpus, 'stl', 'Star-binary.stl'));
  host = (await createBatchHost({ db: openDatabase(':memory:'), baseUrl: sandbox.baseUrl, timeoutMs: 5_000, tickMs: 50 }));
  await host.signIn(DEMO_EMAIL, sandbox.demoAccount.password);
  await host.start();
});
after(async () => {
  await host.stop();
  await sandbox.dispose();
});

const encode = (text: string) => new TextEncoder().encode(text);
const HEADER = 'orderReference,firstName,lastName,streetAddress,postal,city,country,countryState,phoneNumber,email,model,quantity,shipping';
const FILE = [
  HEADER,
  'T-1,Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,,+31 20 123 4567,ada@example.com,Cube-binary.stl,2,cheapest',
  'T-1,,,,,,,,,,star-binary,1,',
  ',Alan,Turing,Unter den Linden 5,10117,Berlin,DE,,,alan-at-example.com,CUBE-BINARY,1,DHL parcel',
  ',Grace,Hopper,1 Main St,10001,New York,US,NY,,grace@example.com,Cube-binary.stl,1,fastest',
].join('\r\n');

async function sandboxOrders() {
  return sandbox.operator.listOrders({ projectId });
}

test('import → fix a cell → send → report: every row placed, the two-row order as one order', async () => {
  const imported = await host.batches.import({ bytes: encode(FILE), fileName: 'shop.csv', projectId });
  assert.equal(imported.rows, 4);
  assert.equal(imported.orders, 3);
  assert.equal(imported.sendable, 2, 'one order held back by its bad row');
  const errors = await host.batches.errors(imported.id);
  assert.deepEqual(errors.map((e) => [e.row, e.column, e.message]), [[4, 'email', 'Not an email address']]);
  const onlyErrors = await host.batches.rows(imported.id, { errorsOnly: true });
  assert.deepEqual(onlyErrors.rows.map((r) => r.row), [4]);
  await assert.rejects(host.batches.send(imported.id), /1 row has problems/);

  const fixed = await host.batches.updateCell(imported.id, 4, 9, 'alan@example.com');
  assert.equal(fixed.summary.errors, 0);
  assert.equal(fixed.summary.sendable, 3);
  assert.deepEqual(fixed.rows.map((r) => [r.row, r.errors.length]), [[4, 0]]);

  await host.batches.send(imported.id);
  const done = await host.batches.settled(imported.id);
  assert.deepEqual({ done: done.done, failed: done.failed, left: done.left, total: done.total }, { done: 3, failed: 0, left: 0, total: 3 });
  assert.equal((await host.batches.get(imported.id)).state, 'done');

  const report = await host.batches.report(imported.id);
  assert.deepEqual(report.map((r) => r.outcome), ['placed', 'placed', 'placed', 'placed']);
  assert.equal(report[0].orderId, report[1].orderId, 'rows of one reference are one order');
  const orders = await sandboxOrders();
  assert.equal(orders.length, 3);
  const byRef = new Map(orders.map((o) => [o.orderReference, o]));
  assert.equal(byRef.get('T-1')?.models.length, 2);
  assert.equal(byRef.get(report[2].reference)?.shippingMethod, 201, 'DHL parcel by carrier and method');
  assert.equal(byRef.get(report[3].reference)?.shippingMethod, 203, 'fastest to the US is DHL express');
  assert.equal(byRef.get(report[2].reference)?.email, 'alan@example.com');
  // What crosses the contract matches the schemas the contract will declare.
  BatchSummary.parse(await host.batches.get(imported.id));
  BatchRowsPage.parse(await host.batches.rows(imported.id, { limit: 2 }));
  BatchProgress.parse(done);
  BatchReportRow.array().parse(report);
  const csv = await host.batches.reportCsv(imported.id);
  assert.ok(csv.includes(`"placed","${report[0].orderId}","T-1"`));
});

test('importing the same file again places nothing twice: its orders are reported as skipped', async () => {
  const before = (await sandboxOrders()).length;
  const again = await host.batches.import({ bytes: encode(FILE), fileName: 'shop (1).csv', projectId });
  // All three were sent before (the third under the same reference, its e-mail fixed since): nothing to send.
  assert.deepEqual([again.usedElsewhere, again.sendable], [3, 0]);
  await host.batches.send(again.id, { skipInvalid: true });
  await host.batches.settled(again.id);
  const report = await host.batches.report(again.id);
  // Its third order was fixed in PrintDesk before it was placed: the file's bad e-mail is not called invalid again.
  assert.deepEqual(report.map((r) => r.outcome), ['skipped', 'skipped', 'skipped', 'skipped']);
  assert.match(report[0].message ?? '', /^Placed as [0-9a-f-]{36} in batch "shop.csv"/);
  assert.match(report[2].message ?? '', /^Placed as [0-9a-f-]{36} \(edited in PrintDesk: e-mail\) in batch "shop.csv"/);
  assert.equal((await sandboxOrders()).length, before);
});

test('a report exported, fixed in a spreadsheet and imported again sends the fixed row alone: phones read as written, references as the rows\' own', async () => {
  const before = (await sandboxOrders()).length;
  const file = [
    'Order Number,First name,Last name,Address,Zip,City,Country,Phone,Email,Model,Qty',
    'RP-1,Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,+31 20 123 4567,ada@example.com,Cube-binary.stl,1',
    'RP-2,Alan,Turing,Unter den Linden 5,10117,Berlin,DE,+49 30 1234567,alan-at-example.com,Cube-binary.stl,1',
    'RP-3,Grace,Hopper,Damrak 1,1012 LG,Amsterdam,NL,+31 20 555 0100,grace@example.com,Cube-binary.stl,1',
  ].join('\r\n');
  const first = await host.batches.import({ bytes: encode(file), fileName: 'shop-rp.csv', projectId });
  await host.batches.send(first.id, { skipInvalid: true });
  await host.batches.settled(first.id);
  const report = await host.batches.reportCsv(first.id);
  // The report's phones carry a quote against formulas; its first columns are the outcome and the service's order id.
  assert.ok(report.includes(`"'+49 30 1234567"`));
  const fixed = report.replace('alan-at-example.com', 'alan@example.com');
  const again = await host.batches.import({ bytes: encode(fixed), fileName: 'shop-rp report.csv', projectId });
  assert.deepEqual([again.errors, again.usedElsewhere, again.sendable], [0, 2, 1]);
  await host.batches.send(again.id, { skipInvalid: true });
  await host.batches.settled(again.id);
  const orders = await sandboxOrders();
  assert.equal(orders.length, before + 3);
  assert.deepEqual(orders.filter((o) => o.orderReference.startsWith('RP-')).map((o) => o.orderReference).sort(), ['RP-1', 'RP-2', 'RP-3']);
  assert.equal(orders.find((o) => o.orderReference === 'RP-2')?.phoneNumber, '+49 30 1234567');
});

test('a row that changes an order placed earlier under its reference is a problem of that row, not dropped in silence', async () => {
  const header = 'Order Number,First name,Last name,Address,Zip,City,Country,Email,Model,Qty';
  const row = (reference: string, quantity: number) => `${reference},Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,Cube-binary.stl,${quantity}`;
  const first = await host.batches.import({ bytes: encode([header, row('CQ-1', 3)].join('\n')), fileName: 'cq.csv', projectId });
  await host.batches.send(first.id);
  await host.batches.settled(first.id);
  // The same file with CQ-1's quantity changed and a new order added.
  const edited = await host.batches.import({ bytes: encode([header, row('CQ-1', 5), row('CQ-2', 1)].join('\n')), fileName: 'cq edited.csv', projectId });
  assert.deepEqual([edited.errors, edited.sendable], [1, 1]);
  const [problem] = await host.batches.errors(edited.id);
  assert.deepEqual([problem.row, problem.column], [2, 'Order Number']);
  assert.match(problem.message, /^Reference CQ-1 was placed in batch "cq\.csv" of \d{4}-\d\d-\d\d with another quantity \(3, not 5\)\. .*new reference/);
  // Put back as it was, the row is the same order again: skipped, as before.
  await host.batches.updateCell(edited.id, 2, 9, '3');
  assert.equal((await host.batches.get(edited.id)).errors, 0);
  await host.batches.send(edited.id);
  await host.batches.settled(edited.id);
  const orders = (await sandboxOrders()).filter((o) => o.orderReference.startsWith('CQ-'));
  assert.deepEqual(orders.map((o) => [o.orderReference, o.models[0].quantity]).sort(), [['CQ-1', 3], ['CQ-2', 1]]);
});

test('a layout nothing matches is mapped by hand once, remembered, and a corrected file re-imported', async () => {
  const odd = 'Given,Family,Line 1,Code,Town,Nation,Mail,Part\nAda,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,nope.stl\n';
  const batch = await host.batches.import({ bytes: encode(odd), fileName: 'odd.csv', projectId });
  const problems = await host.batches.errors(batch.id);
  assert.equal(problems.length, 6, 'Town and Mail are recognised; the six others are missing');
  assert.ok(problems.every((e) => e.row === 1 && e.column === null), 'missing columns are reported on the header row');
  assert.equal((await host.batches.get(batch.id)).sendable, 0, 'a problem in the header holds back every order');
  const mapping = { firstName: 0, lastName: 1, streetAddress: 2, postal: 3, city: 4, country: 5, email: 6, modelName: 7 };
  const mapped = await host.batches.setMapping(batch.id, mapping);
  assert.deepEqual((await host.batches.errors(batch.id)).map((e) => [e.row, e.column, e.message]), [[2, 'Part', 'No model named "nope.stl" in this project']]);
  assert.equal(mapped.errors, 1);

  const fixed = await host.batches.reimport(batch.id, encode(odd.replace('nope.stl', 'Cube-binary')), 'odd (fixed).csv');
  assert.equal(fixed.errors, 0);
  assert.equal(fixed.fileName, 'odd (fixed).csv');
  const again = await host.batches.import({ bytes: encode(odd), fileName: 'odd again.csv', projectId });
  assert.deepEqual(again.mapping, mapping, 'the mapping is remembered for this header layout');
});

function manyOrders(n: number, prefix: string): string {
  const rows = Array.from({ length: n }, (_, i) => `${prefix}-${i},Ada,Lovelace,Keizersgracht ${i + 1},1015 CJ,Amsterdam,NL,,,ada@example.com,Cube-binary.stl,1,cheapest`);
  return [HEADER, ...rows].join('\n');
}

test('pause holds the batch, cancel returns what was not sent to draft, and sending again finishes it once', async () => {
  sandbox.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: 100 });
  try {
    const batch = await host.batches.import({ bytes: encode(manyOrders(40, 'P')), fileName: 'pause.csv', projectId });
    await host.batches.send(batch.id);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const paused = await host.batches.pause(batch.id);
    assert.equal(paused.state, 'paused');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const held = await host.batches.progress(batch.id);
    assert.ok(held.left > 0 && held.done < 40, JSON.stringify(held));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await host.batches.progress(batch.id)).done, held.done, 'nothing is sent while paused');
    // Only the batch waits: a single order placed meanwhile goes out.
    const quote = await host.orders.quote({ country: 'NL', models: [{ modelId: cubeId, quantity: 1 }] });
    const draft = await host.orders.save(projectId, {
      recipient: { firstName: 'Urgent', lastName: 'Order', streetAddress: 'Damrak 1', postal: '1012 LG', city: 'Amsterdam', country: 'NL', countryState: '', phoneNumber: '', email: 'urgent@example.com' },
      models: [{ modelId: cubeId, quantity: 1 }],
      shippingMethod: { ...quote.methods[0], minDeliveryTime: null, maxDeliveryTime: null, estimatedDeliveryTime: null },
      orderContent: { ConfigIds: [], ExternalConfigIds: [], StockIds: [] },
    });
    const account = `${sandbox.baseUrl} ${DEMO_EMAIL}`;
    const waiting = (await host.orders.store.countByState(account, projectId)).queued;
    await host.orders.place(draft.id);
    const deadline = Date.now() + 5_000;
    while ((await host.orders.get(draft.id)).state !== 'placed' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal((await host.orders.get(draft.id)).state, 'placed', 'a single order is not held by a paused batch');
    // Orders already on their way at the pause may finish (or come back after a 429); none is taken from the queue.
    assert.ok((await host.orders.store.countByState(account, projectId)).queued >= waiting, 'the paused batch still waits');

    const cancelled = await host.batches.cancel(batch.id);
    assert.equal(cancelled.state, 'cancelled');
    // What was in flight (here: waiting out a 429) finishes; nothing is left queued.
    assert.ok(cancelled.cancelled > 0);
    assert.equal(cancelled.cancelled + cancelled.done + cancelled.left, 40);
    assert.equal((await host.orders.store.countByState(`${sandbox.baseUrl} ${DEMO_EMAIL}`, projectId)).queued, 0);
    assert.ok((await host.batches.report(batch.id)).some((r) => r.outcome === 'cancelled'));

    await host.batches.send(batch.id);
    const finished = await host.batches.settled(batch.id);
    assert.equal(finished.done, 40);
    const counts = new Map<string, number>();
    for (const o of await sandboxOrders()) counts.set(o.orderReference, (counts.get(o.orderReference) ?? 0) + 1);
    for (let i = 0; i < 40; i++) assert.equal(counts.get(`P-${i}`), 1, `P-${i}`);
  } finally {
    sandbox.faults.clear();
  }
});

test('a file without references, edited and imported again, places only its new and changed rows', async () => {
  const header = 'firstName,lastName,streetAddress,postal,city,country,email,model,quantity';
  const row = (i: number, street = `Keizersgracht ${i}`) => `Ada${i},Lovelace,${street},1015 CJ,Amsterdam,NL,ada@example.com,Cube-binary.stl,1`;
  const first = [header, ...Array.from({ length: 6 }, (_, i) => row(i))].join('\n');
  const one = await host.batches.import({ bytes: encode(first), fileName: 'noref.csv', projectId });
  assert.equal(one.errors, 0);
  await host.batches.send(one.id);
  await host.batches.settled(one.id);
  const placedBefore = (await sandboxOrders()).length;
  // A row added on top, one street corrected, the rest as they were (and a spreadsheet's spacing).
  const edited = [header, row(99), ...Array.from({ length: 6 }, (_, i) => (i === 2 ? row(i, 'Herengracht 2') : row(i).replace('Lovelace', ' Lovelace')))].join('\r\n');
  const two = await host.batches.import({ bytes: encode(edited), fileName: 'noref.csv', projectId });
  await host.batches.send(two.id);
  await host.batches.settled(two.id);
  const outcomes = (await host.batches.report(two.id)).map((r) => r.outcome);
  assert.deepEqual(outcomes, ['placed', 'skipped', 'skipped', 'placed', 'skipped', 'skipped', 'skipped']);
  assert.equal((await sandboxOrders()).length, placedBefore + 2);
});

test('references follow edits before sending and stay after: a typed reference renumbers identical rows, a queued order cannot change, nothing slips in while sending starts', async () => {
  const header = 'orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,quantity';
  const same = ',Bea,Baker,Damrak 9,1012 LG,Amsterdam,NL,bea@example.com,Cube-binary.stl,1';
  const batch = await host.batches.import({ bytes: encode([header, same, same, same.replace('Damrak 9', 'Damrak 10')].join('\n')), fileName: 'edits.csv', projectId });
  const references = async () => (await host.batches.rows(batch.id)).rows.map((r) => r.reference);
  const [first, second] = await references();
  assert.deepEqual([first.slice(-2), second.slice(-2)], ['-1', '-2']);
  // Row 2 gets a reference of its own: row 3, identical, is now the first of its content.
  await host.batches.updateCell(batch.id, 2, 0, 'BEA-OWN');
  assert.deepEqual((await references()).slice(0, 2), ['BEA-OWN', first]);

  // An edit made while Send fetches its quotes is refused, not sent unseen.
  const sending = host.batches.send(batch.id);
  await assert.rejects(host.batches.updateCell(batch.id, 4, 3, 'Damrak 11'), /being sent/);
  await sending;
  await host.batches.settled(batch.id);
  // Once sent, a row whose order was queued keeps it: changing it here would orphan or double it.
  await assert.rejects(host.batches.updateCell(batch.id, 3, 3, 'Damrak 12'), /was queued when this batch was sent|can no longer be changed here|import the file again as a new batch/);
});

test('after a cancel, a row without a reference is fixed in the batch under the reference its draft carries, and sent from it once', async () => {
  sandbox.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: 300 });
  try {
    const header = 'firstName,lastName,streetAddress,postal,city,country,email,model,quantity';
    const rows = Array.from({ length: 40 }, (_, i) => `Cy${i},Coder,Main St ${i},1015 CJ,Amsterdam,NL,cy@example.com,Cube-binary.stl,1`);
    const batch = await host.batches.import({ bytes: encode([header, ...rows].join('\n')), fileName: 'noref-cancel.csv', projectId });
    await host.batches.send(batch.id);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await host.batches.cancel(batch.id);
    const unsent = (await host.batches.report(batch.id)).find((r) => r.outcome === 'cancelled');
    assert.ok(unsent, 'some orders were not sent before the cancel');
    const { rows: [edited] } = await host.batches.updateCell(batch.id, unsent.row, 2, 'Herengracht 1');
    assert.equal(edited.reference, unsent.reference, 'its draft carries the reference: the row keeps it');
    await host.orders.outbox.drained();
    sandbox.faults.clear();
    await host.batches.send(batch.id, { skipInvalid: true });
    await host.batches.settled(batch.id);
    const placed = (await sandboxOrders()).filter((o) => o.orderReference === unsent.reference);
    assert.deepEqual(placed.map((o) => o.streetAddress), ['Herengracht 1'], 'placed once, as fixed');
  } finally {
    sandbox.faults.clear();
  }
});

test('a cancelled batch\'s unsent orders are sent by the file imported again, each once', async () => {
  sandbox.faults.set({ kind: 'latency', path: '/Order/CreateOrder', ms: 300 });
  try {
    const file = encode(manyOrders(60, 'C'));
    const batch = await host.batches.import({ bytes: file, fileName: 'cancel.csv', projectId });
    await host.batches.send(batch.id);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const cancelled = await host.batches.cancel(batch.id);
    assert.ok(cancelled.cancelled > 0, JSON.stringify(cancelled));
    // What was in flight at the cancel finishes first (placed, or back in the queue after a 429).
    const account = `${sandbox.baseUrl} ${DEMO_EMAIL}`;
    while ((await host.orders.store.countByState(account, projectId)).sending > 0) await new Promise((resolve) => setTimeout(resolve, 20));

    const again = await host.batches.import({ bytes: file, fileName: 'cancel.csv', projectId });
    await host.batches.send(again.id);
    const finished = await host.batches.settled(again.id);
    await host.orders.outbox.drained();
    const placedFirst = (await host.batches.report(batch.id)).filter((r) => r.outcome === 'placed').length;
    const placedAgain = (await host.batches.report(again.id)).filter((r) => r.outcome === 'placed').length;
    assert.equal(placedFirst + placedAgain, 60, 'the unsent ones are sent now');
    assert.ok(placedAgain >= cancelled.cancelled);
    assert.equal(finished.failed, 0);
    assert.ok((await host.batches.report(batch.id)).some((r) => /Sent from batch "cancel.csv"/.test(r.message ?? '')), 'the first batch says where its orders went');
    const counts = new Map<string, number>();
    for (const o of await sandboxOrders()) counts.set(o.orderReference, (counts.get(o.orderReference) ?? 0) + 1);
    for (let i = 0; i < 60; i++) assert.equal(counts.get(`C-${i}`), 1, `C-${i}`);
  } finally {
    sandbox.faults.clear();
  }
});

test('under a rate limit of 20 orders a second, in flight follows X-RateLimit-Remaining and nothing fails', async () => {
  const seen: number[] = [];
  const batch = await host.batches.import({ bytes: encode(manyOrders(60, 'R')), fileName: 'rate.csv', projectId });
  const started = performance.now();
  await host.batches.send(batch.id);
  const timer = setInterval(() => void host.batches.progress(batch.id).then((progress) => seen.push(progress.concurrency)), 20);
  const done = await host.batches.settled(batch.id);
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  assert.equal(done.done, 60);
  assert.equal(done.failed, 0);
  assert.ok(seconds >= 1.9, `60 orders at 20/s cannot take less than 2 s (took ${seconds.toFixed(2)})`);
  assert.ok(seen.every((n) => n >= 1 && n <= 16));
  assert.ok(seen.some((n) => n < 16), 'concurrency dropped as a window ran out');
});
