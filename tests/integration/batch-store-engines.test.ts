// The batch domain's tables (electron/services/batch/) behave alike on SQLite and on a team's PostgreSQL: a
// batch's rows imported and fixed, its problems, the SKU table, the layouts remembered, the shipping quoted, and
// its orders queued as drafts through the orders store on the same store, none twice.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyOrderContent } from '../../common/orders/empty.ts';
import { earlierOrders } from '../../electron/services/batch/earlier-order.ts';
import { enqueue } from '../../electron/services/batch/enqueue.ts';
import { reportRows } from '../../electron/services/batch/outcomes.ts';
import { countBatch } from '../../electron/services/batch/progress.ts';
import type { BatchError } from '../../electron/services/batch/schemas.ts';
import { skuTable } from '../../electron/services/batch/sku-table.ts';
import { createBatchTables, type BatchRecord, type BatchTables } from '../../electron/services/batch/tables.ts';
import type { ValidatedOrder } from '../../electron/services/batch/validate.ts';
import { workspaceOf } from '../../electron/services/batch/workspace.ts';
import { MIGRATIONS } from '../../electron/services/batch/migrations.ts';
import { ORDERS_MIGRATIONS } from '../../electron/services/orders/migrations.ts';
import { createOrdersStore } from '../../electron/services/orders/store.ts';
import { forEachEngine } from '../sql-engines.ts';
import { batchFieldsOf, CUBE, HEADER, METHOD, orderOf as orderFromRows, rowsOf } from '../batch-fixtures.ts';

const STAR = '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b';
const MODELS = { byName: new Map([['star-binary', STAR]]), byStem: new Map([['star-binary', STAR]]), names: new Map([[CUBE, 'Cube-binary'], [STAR, 'Star-binary']]) };
// Every batch of a test is stamped in the same second: which is newest is told by the order they were made in.
const NOW = () => new Date('2026-11-20T10:00:00Z');

const fieldsOf = (fileName: string, fileHash = fileName) => batchFieldsOf(fileName, fileHash);
const orderOf = (reference: string, row: number): ValidatedOrder => orderFromRows(reference, [row]);

const problem = (row: number, kind: BatchError['kind'], message: string, reason?: BatchError['reason']): BatchError => ({ row, column: 'Email', field: 'email', message, kind, ...(reason ? { reason } : {}) });

forEachEngine((engine) => {
  async function open() {
    const sql = await engine.open();
    const store = await createOrdersStore(sql);
    const tables = await createBatchTables(sql, NOW);
    return { sql, store, tables };
  }

  /** The drafts' references with how many drafts hold each. */
  async function draftsByReference(tables: BatchTables): Promise<Map<string, number>> {
    const rows = await tables.sql.all<{ reference: string; n: number }>('SELECT order_reference AS reference, COUNT(*) AS n FROM drafts GROUP BY order_reference');
    return new Map(rows.map((r) => [r.reference, r.n]));
  }

  test(`a batch's rows imported by the thousand, paged, counted and imported again; the newest batch of a file found, on ${engine.name}`, async () => {
    const { tables } = await open();
    const first = await tables.create(fieldsOf('shop.csv', 'h1'), rowsOf(2500));
    assert.deepEqual([first.state, first.fileName, first.header, first.createdAt], ['draft', 'shop.csv', HEADER, '2026-11-20T10:00:00Z']);
    const records = await tables.records(first.id);
    assert.equal(records.length, 2500);
    assert.deepEqual(records[2499], { row: 2501, reference: 'R-1249', cells: ['R-1249', 'c2499@example.com'] });
    const page = await tables.page(first.id, 100, 50, false);
    assert.deepEqual([page.total, page.records[0].row, page.records.at(-1)?.row], [2500, 102, 151]);
    const some = Array.from({ length: 1100 }, (_, i) => `R-${i}`);
    assert.equal((await tables.records(first.id, some)).length, 2200, "a thousand references and more: each one's rows");
    const counts = await tables.counts(first.id);
    assert.deepEqual([counts.rows, counts.orders, counts.sendable, counts.rowsWithErrors, counts.usedElsewhere, counts.queued], [2500, 1250, 1250, 0, 0, 0]);

    const second = await tables.create(fieldsOf('shop (again).csv', 'h1'), rowsOf(4));
    assert.equal((await tables.findByFile('p', 'h1'))?.id, second.id, 'the newer of two stamped in the same second');
    assert.deepEqual((await tables.list('acct', 'p')).map((b) => b.id), [second.id, first.id]);
    assert.deepEqual(await tables.list('someone else', 'p'), []);

    await tables.putErrors(first.id, [problem(3, 'error', 'Not an email address')]);
    await tables.replaceRows(first.id, { ...fieldsOf('shop (fixed).csv', 'h2'), layout: null }, rowsOf(3, 'F'));
    const replaced = (await tables.get(first.id)) as BatchRecord;
    assert.deepEqual([replaced.fileName, replaced.fileHash], ['shop (fixed).csv', 'h2']);
    assert.deepEqual((await tables.records(first.id)).map((r) => r.reference), ['F-0', 'F-0', 'F-1']);
    assert.deepEqual(await tables.errors(first.id), [], "the old file's problems went with its rows");
    await tables.update(first.id, { state: 'done', sentAt: '2026-11-20T10:01:00Z', include: [] });
    assert.deepEqual((await tables.inState('done')).map((b) => [b.id, b.sentAt]), [[first.id, '2026-11-20T10:01:00Z']]);
  });

  test(`cells fixed in place keep the file's own, and the order made from them tells both to another batch, on ${engine.name}`, async () => {
    const { store, tables } = await open();
    const batch = await tables.create(fieldsOf('fix.csv'), rowsOf(1200));
    const fixed = (await tables.records(batch.id)).map((r) => ({ ...r, cells: [r.cells[0], r.cells[1].replace('@', '+fixed@')] }));
    await tables.setRows(batch.id, fixed);
    await tables.setRows(batch.id, [{ row: 2, reference: 'R-0', cells: ['R-0', 'second@example.com'] }]);
    assert.deepEqual(await tables.record(batch.id, 2), { row: 2, reference: 'R-0', cells: ['R-0', 'second@example.com'] });
    assert.deepEqual((await tables.record(batch.id, 1201))?.cells, ['R-599', 'c1199+fixed@example.com']);
    const imported = await tables.sql.all<{ imported_cells: string }>('SELECT imported_cells FROM batch_rows WHERE batch_id = ? AND row IN (?, ?) ORDER BY row', [batch.id, 2, 1201]);
    assert.deepEqual(imported.map((r) => JSON.parse(r.imported_cells) as string[]), [['R-0', 'c0@example.com'], ['R-599', 'c1199@example.com']], 'as the file had them, kept the first time');

    await tables.setRows(batch.id, [{ row: 3, reference: 'R-moved', cells: ['R-moved', 'c1@example.com'] }]);
    assert.deepEqual((await tables.records(batch.id, ['R-moved'])).map((r) => r.row), [3], 'a fix moves the row to the reference it names');

    const draft = await store.create('acct', 'p', { recipient: orderOf('R-1', 4).recipient, models: [], shippingMethod: null, orderContent: emptyOrderContent() }, 'R-1');
    await tables.sql.run('UPDATE drafts SET batch_id = ? WHERE id = ?', [batch.id, draft.id]);
    assert.equal((await earlierOrders(tables.sql, batch.id, ['R-1'])).size, 0, "a batch's own order is not an earlier one");
    const earlier = (await earlierOrders(tables.sql, 'another batch', ['R-1', 'R-nowhere'])).get('R-1');
    assert.ok(earlier);
    assert.deepEqual([earlier.state, earlier.where], ['draft', 'in batch "fix.csv" of 2026-11-20']);
    assert.deepEqual(earlier.rows, [
      { imported: { orderReference: 'R-1', email: 'c2@example.com' }, sent: { orderReference: 'R-1', email: 'c2+fixed@example.com' } },
      { imported: { orderReference: 'R-1', email: 'c3@example.com' }, sent: { orderReference: 'R-1', email: 'c3+fixed@example.com' } },
    ]);
    assert.deepEqual((await store.get(draft.id))?.batch, { batchId: batch.id, fileName: 'fix.csv', importedAt: batch.createdAt, rows: [4, 5] }, "the draft knows the batch's file and rows");
  });

  test(`problems are kept per row in the order found, replaced row by row, and counted, on ${engine.name}`, async () => {
    const { tables } = await open();
    const batch = await tables.create(fieldsOf('problems.csv'), rowsOf(3000));
    const many = Array.from({ length: 3000 }, (_, i) => problem(i + 2, 'warning', `warning ${i}`));
    await tables.putErrors(batch.id, [...many, problem(5, 'error', 'Not an email address'), problem(5, 'note', 'Read "Germany" as DE'), problem(7, 'skip', 'Not paid', 'unpaid'), problem(9, 'note', 'Read "Germany" as DE')]);
    assert.equal((await tables.errors(batch.id)).length, 3004);
    assert.deepEqual((await tables.errors(batch.id, [5, 7])).map((e) => [e.row, e.kind, e.message]), [
      [5, 'warning', 'warning 3'], [5, 'error', 'Not an email address'], [5, 'note', 'Read "Germany" as DE'], [7, 'warning', 'warning 5'], [7, 'skip', 'Not paid'],
    ]);
    assert.deepEqual(await tables.errors(batch.id, undefined, ['skip']), [{ ...problem(7, 'skip', 'Not paid', 'unpaid') }]);
    assert.equal((await tables.errors(batch.id, Array.from({ length: 2500 }, (_, i) => i + 2), ['warning'])).length, 2500, 'rows asked by the thousand');

    let counts = await tables.counts(batch.id);
    assert.deepEqual([counts.rowsWithErrors, counts.rowsWithWarnings, counts.errors, counts.sendable], [1, 3000, 1, 1498], 'R-1 held back by its error, R-2 not taken');
    assert.deepEqual(counts.notTaken, [{ reason: 'unpaid', orders: 1 }]);
    assert.deepEqual(counts.notes, [{ message: 'Read "Germany" as DE', rows: 2 }]);
    assert.equal((await tables.page(batch.id, 0, 10, true)).total, 3000, 'rows left: with a problem or a warning');

    await tables.putErrors(batch.id, [problem(5, 'warning', 'Looks odd')], [5, 6]);
    assert.deepEqual((await tables.errors(batch.id, [5, 6])).map((e) => e.message), ['Looks odd'], "only the rows checked again change");
    counts = await tables.counts(batch.id);
    assert.deepEqual([counts.rowsWithErrors, counts.sendable, counts.notes.length], [0, 1499, 1]);
    await tables.putErrors(batch.id, [problem(1, 'error', 'Required column missing')]);
    assert.equal((await tables.counts(batch.id)).sendable, 0, 'a problem of the header holds back every order');
  });

  test(`the SKU table: picked, forgotten, exported and imported whole or not at all, on ${engine.name}`, async () => {
    const { tables } = await open();
    const skus = skuTable(tables.sql, tables.stamp);
    await skus.set('p', 'STAR-01', { modelId: STAR.toUpperCase(), skip: false });
    await skus.set('p', 'Gift Card', { modelId: null, skip: true });
    await skus.set('other', 'STAR-01', { modelId: CUBE, skip: false });
    assert.deepEqual([...(await skus.entries('p'))], [['gift card', { sku: 'Gift Card', modelId: null, skip: true }], ['star-01', { sku: 'STAR-01', modelId: STAR, skip: false }]]);
    await skus.set('p', 'star-01', { modelId: null, skip: false });
    assert.deepEqual([...(await skus.entries('p')).keys()], ['gift card']);
    await skus.set('p', 'STAR-01', { modelId: STAR, skip: false });
    const csv = await skus.exportCsv('p', MODELS);
    assert.equal(csv.split(/\r?\n/)[2], `"STAR-01","${STAR}","Star-binary",""`);

    const lines = Array.from({ length: 1500 }, (_, i) => `SKU-${i},${i % 2 ? CUBE : STAR},,`);
    const file = new TextEncoder().encode(['SKU,Model id,Model name,Not a print', ...lines, `sku-7,,,yes`].join('\n'));
    assert.deepEqual(await skus.importCsv('p', file, MODELS), { imported: 1501 });
    const entries = await skus.entries('p');
    assert.equal(entries.size, 1502);
    assert.deepEqual(entries.get('sku-7'), { sku: 'sku-7', modelId: null, skip: true }, 'a SKU the file gives twice is what it says last');
    await assert.rejects(skus.importCsv('p', new TextEncoder().encode('SKU,Model name\nNEW-1,Star-binary\nNEW-2,Nowhere\n'), MODELS), /Nothing was imported\. Row 3: no model named "Nowhere"/);
    assert.equal((await skus.entries('p')).size, 1502);
    assert.equal((await skus.entries('other')).get('star-01')?.modelId, CUBE, "another project's table is its own");
  });

  test(`column matchings and values for every row are remembered per layout; each order's shipping as quoted, on ${engine.name}`, async () => {
    const { tables } = await open();
    await tables.mappings.rememberConstants('etsy', { email: 'orders@shop.example' });
    assert.equal(await tables.mappings.recall('etsy'), null, 'no matching was changed for it');
    await tables.mappings.remember('etsy', { orderReference: 1 });
    await tables.mappings.remember('etsy', { orderReference: 2, email: 3 });
    assert.deepEqual(await tables.mappings.recall('etsy'), { orderReference: 2, email: 3 });
    assert.deepEqual(await tables.mappings.recallConstants('etsy'), { email: 'orders@shop.example' });
    assert.deepEqual(await tables.mappings.recallConstants('shopify'), {});

    const batch = await tables.create(fieldsOf('ship.csv'), rowsOf(4000));
    const quoted = (reference: string, price: number) => ({ reference, method: { ...METHOD, price }, currency: 'EUR' });
    await tables.putShipping(batch.id, Array.from({ length: 2000 }, (_, i) => quoted(`R-${i}`, 395)));
    await tables.putShipping(batch.id, [quoted('R-1', 450)], ['R-1', 'R-2']);
    const shipping = await tables.shipping(batch.id);
    assert.equal(shipping.size, 1999, 'R-2 checked again without a quote lost its own');
    assert.deepEqual([shipping.get('R-0')?.method.price, shipping.get('R-1')?.method.price, shipping.has('R-2')], [395, 450, false]);
  });

  test(`sending a batch queues a draft per order through the orders store; a reference held elsewhere is skipped, a re-send reuses the batch's own drafts, on ${engine.name}`, async () => {
    const { store, tables } = await open();
    const single = await store.create('acct', 'p', { recipient: orderOf('HELD-1', 2).recipient, models: [], shippingMethod: null, orderContent: emptyOrderContent() }, 'HELD-1');
    const references = ['HELD-1', ...Array.from({ length: 509 }, (_, i) => `N-${i}`)];
    const batch = await tables.create(fieldsOf('send.csv'), references.map((reference, i) => ({ row: i + 2, reference, cells: [reference, 'ada@example.com'] })));
    const orders = references.map((reference, i) => orderOf(reference, i + 2));
    let kicks = 0;
    assert.deepEqual(await enqueue(store, batch, orders, () => kicks++), { created: 509, requeued: 0, skipped: 1 });
    assert.equal(kicks, 2, 'the outbox is woken once a chunk is committed');
    assert.ok([...(await draftsByReference(tables)).values()].every((n) => n === 1));
    assert.equal((await store.countByState('acct', 'p')).queued, 509);
    // The account's outbox across its projects: what signing out leaves waiting.
    const elsewhere = await store.create('acct', 'q', { recipient: orderOf('Q-1', 2).recipient, models: [], shippingMethod: null, orderContent: emptyOrderContent() }, 'Q-1');
    await store.transition(elsewhere.id, ['draft'], 'queued', {});
    assert.deepEqual(await store.waitingOf('acct', 'q'), { orders: 510, projects: 2, here: 1 });
    assert.deepEqual(await store.waitingOf('acct', null), { orders: 510, projects: 2, here: 0 });
    assert.deepEqual(await store.waitingOf('someone else', 'p'), { orders: 0, projects: 0, here: 0 });
    assert.ok(await store.remove(elsewhere.id, ['queued']));
    const skipped = await tables.sql.get<{ draft_id: string; skipped: string }>('SELECT draft_id, skipped FROM batch_orders WHERE batch_id = ? AND reference = ?', [batch.id, 'HELD-1']);
    assert.equal(skipped?.draft_id, single.id);
    assert.match(skipped?.skipped ?? '', /^Already draft as a single order on \d{4}-\d\d-\d\d$/);
    const counts = await tables.counts(batch.id);
    assert.deepEqual([counts.queued, counts.usedElsewhere, counts.sendable], [509, 1, 0]);
    assert.equal((await tables.taken(batch.id)).size, 510);
    const queued = (await store.list('acct', 'p')).find((d) => d.orderReference === 'N-0');
    assert.deepEqual(queued?.batch?.rows, [3]);

    // Cancelled: what was queued is a draft again. Sent again, the batch's own drafts go, and nothing else.
    for (const reference of ['N-0', 'N-1']) {
      const draft = (await store.list('acct', 'p')).find((d) => d.orderReference === reference);
      await store.transition(draft?.id as string, ['queued'], 'draft', { problem: null });
    }
    assert.deepEqual(await enqueue(store, batch, orders, () => kicks++), { created: 0, requeued: 2, skipped: 1 });
    assert.equal((await draftsByReference(tables)).size, 510, 'nothing twice');
    assert.equal((await store.countByState('acct', 'p')).queued, 509);

    // A batch cancelled before its order was sent hands it to the file imported again.
    await tables.update(batch.id, { state: 'cancelled' });
    const n5 = (await store.list('acct', 'p')).find((d) => d.orderReference === 'N-5');
    await store.transition(n5?.id as string, ['queued'], 'draft', { problem: null });
    const again = await tables.create(fieldsOf('send again.csv'), [{ row: 2, reference: 'N-5', cells: ['N-5', 'ada@example.com'] }, { row: 3, reference: 'N-6', cells: ['N-6', 'ada@example.com'] }]);
    assert.deepEqual(await enqueue(store, again, [orderOf('N-5', 2), orderOf('N-6', 3)], () => kicks++), { created: 0, requeued: 2, skipped: 0 }, 'queued or not, an unplaced order of a cancelled batch');
    assert.equal(await store.batchOf(n5?.id as string), again.id);
    const handedOver = await tables.sql.get<{ skipped: string }>('SELECT skipped FROM batch_orders WHERE batch_id = ? AND reference = ?', [batch.id, 'N-5']);
    assert.equal(handedOver?.skipped, 'Sent from batch "send again.csv" of 2026-11-20 instead');
    assert.equal((await draftsByReference(tables)).get('N-5'), 1);
  });

  test(`a batch's progress, its placed orders' cost read from their JSON, and its report, on ${engine.name}`, async () => {
    const { store, tables } = await open();
    const references = ['P-1', 'P-2', 'P-3', 'P-4'];
    const batch = await tables.create(fieldsOf('progress.csv'), references.map((reference, i) => ({ row: i + 2, reference, cells: [reference, 'ada@example.com'] })));
    await enqueue(store, batch, references.map((reference, i) => orderOf(reference, i + 2)), () => undefined);
    const drafts = new Map((await store.list('acct', 'p')).map((d) => [d.orderReference, d.id]));
    for (const [reference, price] of [['P-1', 395], ['P-2', 405.5]] as const) {
      const id = drafts.get(reference) as string;
      await store.transition(id, ['queued'], 'sending', { attempts: 1 });
      await store.transition(id, ['sending'], 'placed', { placed: { orderId: `o-${reference}`, status: 'received', createdAt: null, shippingPrice: price, currency: 'EUR' } });
    }
    await store.transition(drafts.get('P-3') as string, ['queued'], 'rejected', { problem: { kind: 'rejected', message: 'Model does not exist' } });
    const later = Date.parse('2030-01-01T00:00:00Z');
    await store.transition(drafts.get('P-4') as string, ['queued'], 'queued', { nextAttemptAt: later, waitsForService: true });

    const progress = await countBatch(tables.sql, batch.id, Date.parse('2029-01-01T00:00:00Z'));
    assert.deepEqual(progress, { waiting: { until: '2030-01-01T00:00:00.000Z', forService: true }, total: 4, done: 2, failed: 1, left: 1, cancelled: 0, skipped: 0 });
    assert.equal((await countBatch(tables.sql, batch.id, later)).waiting, null, 'due now: not waiting');
    assert.deepEqual(await workspaceOf(tables.sql, batch.id), { placed: 2, placedCost: 800.5, currency: 'EUR', rejected: 1, needsAttention: 0, leftToFix: 0 });
    const report = await reportRows(tables, (await tables.get(batch.id)) as BatchRecord);
    assert.deepEqual(report.map((r) => [r.reference, r.outcome, r.orderId]), [['P-1', 'placed', 'o-P-1'], ['P-2', 'placed', 'o-P-2'], ['P-3', 'rejected', null], ['P-4', 'pending', null]]);
  });

  test(`the batches' migrations run once, beside the orders' in schema_versions, on ${engine.name}`, async () => {
    const { sql, tables } = await open();
    const batch = await tables.create(fieldsOf('kept.csv'), rowsOf(2));
    const again = await createBatchTables(sql, NOW);
    assert.equal((await again.get(batch.id))?.fileName, 'kept.csv');
    const versions = await sql.all<{ domain: string; version: number }>("SELECT domain, version FROM schema_versions WHERE domain IN ('orders', 'batches') ORDER BY domain");
    assert.deepEqual(versions, [{ domain: 'batches', version: MIGRATIONS.length }, { domain: 'orders', version: ORDERS_MIGRATIONS.length }]);
  });

  test(`a batch paused on one workstation holds its orders on every other at once, not once they have heard, on ${engine.name}`, async () => {
    const { sql, store, tables } = await open();
    const other = await createOrdersStore(await engine.openAgain(sql), undefined, { workstation: 'bench-2', actor: () => null });
    const batch = await tables.create(fieldsOf('paused.csv'), rowsOf(4));
    await enqueue(store, batch, [orderOf('P-0', 2), orderOf('P-1', 4)], () => undefined);
    const single = await store.create('acct', 'p', { recipient: orderOf('S-1', 2).recipient, models: [], shippingMethod: METHOD, orderContent: emptyOrderContent() }, 'S-1');
    await store.transition(single.id, ['draft'], 'queued', { nextAttemptAt: 0 });
    await tables.update(batch.id, { state: 'paused' });
    // bench-2's own list of paused batches is empty: the store says it.
    assert.equal((await other.claimNext(Date.now(), 'acct', [], Date.now() + 60_000))?.orderReference, 'S-1', 'a single order goes');
    assert.equal(await other.claimNext(Date.now(), 'acct', [], Date.now() + 60_000), null, "the paused batch's do not");
    assert.equal(await other.nextWakeAt('acct'), null, 'nor wake the outbox');
    await tables.update(batch.id, { state: 'sending' });
    assert.ok(await other.claimNext(Date.now(), 'acct', [], Date.now() + 60_000), 'resumed, they go');
  });
});
