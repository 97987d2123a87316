// Shops' exports as downloaded (tests/fixtures/platforms): recognised by header, completed (names split,
// address lines joined, the spreadsheet's ' removed), only open orders taken, SKUs through the SKU table.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCountry } from '../../common/batch/country-names.ts';
import { splitName } from '../../common/batch/person-name.ts';
import { readExport, type LayoutName } from '../../common/batch/read-export.ts';
import { withReferences } from '../../common/batch/references.ts';
import { isSendable, rowsToOrders, type RowsInput } from '../../common/batch/rows-to-orders.ts';
import { createSkuLookup, type SkuEntry } from '../../common/batch/sku-match.ts';
import { sampleExport } from '../../common/batch/platforms/samples.ts';
import { PLATFORMS } from '../../common/batch/platforms/index.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', 'platforms', name));
const CUBE = '0f8fad5b-d9cb-469f-a165-70867728950e';
const STAR = '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b';
const MODELS = { byName: new Map([['cube-binary.stl', CUBE], ['star-binary.stl', STAR]]), byStem: new Map([['cube-binary', CUBE], ['star-binary', STAR]]), names: new Map([[CUBE, 'Cube-binary'], [STAR, 'Star-binary']]) };
const TABLE = new Map<string, SkuEntry>([
  ['star-01', { sku: 'STAR-01', modelId: STAR, skip: false }],
  ['gift card', { sku: 'Gift Card', modelId: null, skip: true }],
  ['printable stl file (digital download)', { sku: 'Printable STL file (digital download)', modelId: null, skip: true }],
]);

function read(name: string, options: Partial<RowsInput> & { layout?: LayoutName } = {}) {
  const result = readExport(fixture(name), options.layout);
  assert.ok(result.ok, result.ok ? '' : result.error.message);
  const { header, records, mapping, platform } = result.value;
  assert.ok(mapping);
  const referenced = withReferences(records, mapping, 'p', (text) => createHash('sha256').update(text).digest('hex'));
  const { orders, errors } = rowsToOrders({ header, records: referenced, mapping, models: MODELS.byName, skus: createSkuLookup(TABLE, MODELS), platform, ...options });
  const byRef = new Map(orders.map((o) => [o.reference, o]));
  return { file: result.value, orders, errors, byRef };
}

test('each fixture is recognised by its header, and a file of PrintDesk’s columns by none', () => {
  const found = ['shopify-orders_export_1.csv', 'EtsySoldOrderItems2026-9.csv', 'EtsySoldOrders2026-9.csv', 'amazon-unshipped-orders.txt', 'eBay-OrdersReport-Sep-10-2026-131500.csv'].map((name) => read(name).file.platform?.id);
  assert.deepEqual(found, ['shopify', 'etsy-items', 'etsy-orders', 'amazon', 'ebay']);
  const own = readExport(new TextEncoder().encode('orderReference,firstName,lastName\nA,Ada,Lovelace\n'));
  assert.ok(own.ok && own.value.platform === null && own.value.mapping === null);
});

test('Shopify: the shipping address, the name split, later line items take the first one’s cells, the ’ gone', () => {
  const { byRef, file } = read('shopify-orders_export_1.csv');
  assert.deepEqual(file.header.slice(-2), ['First name', 'Last name']);
  const ada = byRef.get('#1001');
  assert.deepEqual(ada?.recipient, { firstName: 'Ada', lastName: 'Lovelace', streetAddress: 'Keizersgracht 123, 2nd floor', postal: '1015 CJ', city: 'Amsterdam', country: 'NL', countryState: '', phoneNumber: '+31 20 123 4567', email: 'ada@example.com' });
  assert.deepEqual(ada?.models.map((m) => [m.modelId, m.quantity]), [[CUBE, 2], [STAR, 1]]);
  assert.deepEqual([byRef.get('#1002')?.recipient.postal, byRef.get('#1002')?.recipient.phoneNumber], ['02110', '+1 617-555-0134']);
  // In the rows too: the review shows what is sent.
  assert.equal(file.records[3].cells[file.header.indexOf('Shipping Zip')], '02110');
  assert.deepEqual([byRef.get('#1010')?.recipient.firstName, byRef.get('#1010')?.recipient.lastName], ['Jan', 'van der Berg']);
});

test('only paid, unfulfilled, not cancelled orders are taken; the others say why and can be included', () => {
  const { byRef, orders } = read('shopify-orders_export_1.csv');
  assert.deepEqual(Object.fromEntries(orders.filter((o) => o.skipped).map((o) => [o.reference, o.skipped?.reason])), { '#1004': 'fulfilled', '#1005': 'refunded', '#1006': 'unpaid', '#1007': 'cancelled' });
  assert.equal(orders.filter(isSendable).length, 6);
  // A partly fulfilled order sends what is left; its fulfilled line is said so.
  assert.equal(byRef.get('#1009')?.models.length, 1);
  assert.match(byRef.get('#1009')?.errors.find((e) => e.kind === 'note')?.message ?? '', /Item already fulfilled on Shopify/);
  const all = read('shopify-orders_export_1.csv', { include: ['unpaid', 'fulfilled', 'cancelled', 'refunded'] });
  assert.equal(all.orders.filter(isSendable).length, 10);
  assert.equal(all.byRef.get('#1009')?.models.length, 2);
});

test('Etsy: no e-mail in the file, one for every order; countries written out are codes and said so; Georgia is asked', () => {
  const items = read('EtsySoldOrderItems2026-9.csv', { constants: { email: 'orders@shop.example' } });
  assert.equal(items.byRef.get('3012345678')?.recipient.email, 'orders@shop.example');
  assert.deepEqual(items.byRef.get('3012345678')?.recipient.country, 'DE');
  assert.ok(items.errors.some((e) => e.kind === 'note' && e.message === '"Germany" read as DE'));
  assert.equal(items.byRef.get('3012345682')?.models.length, 1, 'the digital download is no print');
  const orders = read('EtsySoldOrders2026-9.csv', { constants: { email: 'orders@shop.example' } });
  // One SKU: the order's item count; two SKUs and two items: one each.
  assert.deepEqual(orders.byRef.get('3019876541')?.models.map((m) => m.quantity), [2]);
  assert.deepEqual(orders.byRef.get('3019876542')?.models.map((m) => m.quantity), [1, 1]);
  assert.ok(orders.byRef.get('3019876543')?.errors.some((e) => e.kind === 'error' && /"Georgia" could be/.test(e.message)));
});

test('Amazon: tab-separated without quoting, three address lines, a line shipped already left out', () => {
  const { byRef, file } = read('amazon-unshipped-orders.txt');
  assert.ok(file.records.some((r) => r.cells.includes('Star ornament 3" wide, black')));
  assert.equal(byRef.get('026-9988776-5544332')?.recipient.streetAddress, 'Flat 4, Riverside House, 12 Quay Street');
  assert.equal(byRef.get('404-7777777-8888888')?.models.length, 1);
  assert.equal(byRef.get('114-5555555-1234567')?.skipped?.reason, 'unpaid');
  const named = readExport(fixture('amazon-unshipped-orders.txt'), 'shopify');
  assert.ok(!named.ok && /not a Shopify orders export/.test(named.error.message));
});

test('eBay: the rows around the header and the trailer are no orders; a summary row and its items are one order', () => {
  const { byRef, file, orders } = read('eBay-OrdersReport-Sep-10-2026-131500.csv', { constants: { email: 'orders@shop.example' } });
  assert.equal(file.trailerRows, 2);
  assert.equal(file.records[0].row, 4, 'rows numbered as the file has them');
  assert.equal(orders.length, 5);
  assert.deepEqual(byRef.get('12-22222-22222')?.models.map((m) => [m.modelId, m.quantity]), [[STAR, 2], [CUBE, 1]]);
  assert.equal(byRef.get('12-22222-22222')?.recipient.countryState, 'CA');
  assert.deepEqual(orders.filter((o) => o.skipped).map((o) => o.skipped?.reason), ['unpaid', 'fulfilled']);
});

test('a SKU: the table’s model first, a model of the same file name next, two of that name are asked, none is said', () => {
  const lookup = createSkuLookup(new Map([['cube-binary', { sku: 'Cube-binary', modelId: STAR, skip: false }]]), {
    ...MODELS,
    byStem: new Map<string, string | string[]>([['cube-binary', CUBE], ['twin', [CUBE, STAR]]]),
  });
  assert.deepEqual(lookup('CUBE-BINARY'), { kind: 'model', modelId: STAR, how: 'table', name: 'Star-binary' });
  assert.deepEqual(lookup('twin'), { kind: 'none', sameName: 2 });
  assert.deepEqual(lookup('nothing'), { kind: 'none', sameName: 0 });
  // A model the table names that is gone from the project asks again, rather than ordering it.
  const gone = createSkuLookup(new Map([['x', { sku: 'x', modelId: '11111111-1111-4111-8111-111111111111', skip: false }]]), MODELS);
  assert.equal(gone('x').kind, 'none');
});

test('names are split as people write them; countries as shops write them; ambiguous ones never guessed', () => {
  assert.deepEqual(splitName('Jan van der Berg'), { firstName: 'Jan', lastName: 'van der Berg' });
  assert.deepEqual(splitName('Lovelace, Ada'), { firstName: 'Ada', lastName: 'Lovelace' });
  assert.deepEqual(splitName('  Ada   Lovelace '), { firstName: 'Ada', lastName: 'Lovelace' });
  assert.deepEqual(splitName('Martin Luther King Jr.'), { firstName: 'Martin Luther', lastName: 'King Jr.' });
  assert.deepEqual(splitName('Madonna'), { firstName: 'Madonna', lastName: '' });
  assert.deepEqual(readCountry('United States'), { ok: true, code: 'US', readFrom: 'United States' });
  assert.deepEqual(readCountry('Deutschland'), { ok: true, code: 'DE', readFrom: 'Deutschland' });
  assert.deepEqual(readCountry('nld'), { ok: true, code: 'nld' });
  for (const name of ['Georgia', 'Jersey', 'Congo', 'Korea', 'Virgin Islands']) assert.equal(readCountry(name).ok, false, name);
});

test('each platform’s sample export is read back as that platform, and its orders are valid', () => {
  for (const platform of PLATFORMS) {
    const sample = sampleExport(platform.id, ['cube-binary.stl', 'star-binary.stl']);
    const result = readExport(new TextEncoder().encode(sample.text));
    assert.ok(result.ok && result.value.platform?.id === platform.id, platform.id);
    if (!result.ok || !result.value.mapping) continue;
    const records = withReferences(result.value.records, result.value.mapping, 'p', (text) => createHash('sha256').update(text).digest('hex'));
    const { orders, errors } = rowsToOrders({ header: result.value.header, records, mapping: result.value.mapping, skus: createSkuLookup(new Map(), MODELS), platform: result.value.platform, constants: { email: 'orders@shop.example' } });
    assert.deepEqual(errors.filter((e) => e.kind === 'error'), [], platform.id);
    assert.ok(orders.length > 0 && orders.every(isSendable), platform.id);
  }
});
