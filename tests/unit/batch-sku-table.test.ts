// The project's SKU table in SQLite: picked once, forgotten, exported and imported as CSV, each row checked
// before any is kept; and the values given for every row, remembered per header layout.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCsv } from '../../common/batch/parse-csv.ts';
import { skuTable } from '../../electron/services/batch/sku-table.ts';
import { createBatchTables } from '../../electron/services/batch/tables.ts';
import { HostError } from '../../electron/services/api/errors.ts';
import { sqliteSql } from '../../electron/services/storage/sqlite-sql.ts';
import { createOrdersStore } from '../../electron/services/orders/store.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';

const CUBE = '0f8fad5b-d9cb-469f-a165-70867728950e';
const STAR = '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b';
const MODELS = { byName: new Map([['cube-binary.stl', CUBE], ['cube-binary', CUBE], ['star-binary', STAR]]), byStem: new Map([['cube-binary', CUBE], ['star-binary', STAR]]), names: new Map([[CUBE, 'Cube-binary'], [STAR, 'Star-binary']]) };

async function open() {
  const sql = sqliteSql(openDatabase(':memory:'));
  await createOrdersStore(sql);
  const tables = await createBatchTables(sql);
  return { tables, skus: skuTable(sql, tables.stamp) };
}

test('a SKU is kept per project, ignoring case; neither a model nor "not a print" forgets it', async () => {
  const { skus } = await open();
  await skus.set('project-a', 'STAR-01', { modelId: STAR.toUpperCase(), skip: false });
  await skus.set('project-a', 'Gift Card', { modelId: null, skip: true });
  assert.deepEqual([...(await skus.entries('project-a'))], [['gift card', { sku: 'Gift Card', modelId: null, skip: true }], ['star-01', { sku: 'STAR-01', modelId: STAR, skip: false }]]);
  assert.equal((await skus.entries('project-b')).size, 0, "another project's table is its own");
  await skus.set('project-a', 'star-01', { modelId: null, skip: false });
  assert.deepEqual([...(await skus.entries('project-a')).keys()], ['gift card']);
  await assert.rejects(skus.set('project-a', 'x', { modelId: 'not-an-id', skip: false }), HostError);
});

test('exported as CSV and imported again, the table is the same; a row that names no model stops the import whole', async () => {
  const { skus } = await open();
  await skus.set('p', 'STAR-01', { modelId: STAR, skip: false });
  await skus.set('p', 'Gift Card', { modelId: null, skip: true });
  const csv = await skus.exportCsv('p', MODELS);
  const parsed = parseCsv(new TextEncoder().encode(csv));
  assert.ok(parsed.ok);
  if (parsed.ok) assert.deepEqual(parsed.value.header, ['SKU', 'Model id', 'Model name', 'Not a print']);
  const other = await open();
  assert.deepEqual(await other.skus.importCsv('p', new TextEncoder().encode(csv), MODELS), { imported: 2 });
  assert.deepEqual(await other.skus.entries('p'), await skus.entries('p'));
  // By name or file name, as a shop writes its own list.
  assert.deepEqual(await other.skus.importCsv('p', new TextEncoder().encode('sku;model\nCUBE-9;Cube-binary.stl\n'), MODELS), { imported: 1 });
  assert.equal((await other.skus.entries('p')).get('cube-9')?.modelId, CUBE);
  const before = (await other.skus.entries('p')).size;
  await assert.rejects(other.skus.importCsv('p', new TextEncoder().encode('SKU,Model name\nA,Star-binary\nB,Nowhere\n'), MODELS), /Nothing was imported\. Row 3: no model named "Nowhere"/);
  assert.equal((await other.skus.entries('p')).size, before);
  await assert.rejects(other.skus.importCsv('p', new TextEncoder().encode('Code,Model\nA,Star\n'), MODELS), /needs a "SKU" column/);
});

test('the values given for every row are kept per header layout, beside its matching', async () => {
  const { tables } = await open();
  await tables.mappings.rememberConstants('etsy-layout', { email: 'orders@shop.example' });
  assert.equal(await tables.mappings.recall('etsy-layout'), null, 'no matching was changed for it');
  await tables.mappings.remember('etsy-layout', { orderReference: 1 });
  assert.deepEqual(await tables.mappings.recall('etsy-layout'), { orderReference: 1 });
  assert.deepEqual(await tables.mappings.recallConstants('etsy-layout'), { email: 'orders@shop.example' });
  assert.deepEqual(await tables.mappings.recallConstants('other'), {});
});
