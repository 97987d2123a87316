import assert from 'node:assert/strict';
import { test } from 'node:test';
import { autoMap, checkMapping } from '../../common/batch/mapping.ts';
import { parseCsv } from '../../common/batch/parse-csv.ts';
import { countOutcomes, neutraliseCell, reportCsv, type ReportRow } from '../../common/batch/report.ts';
import { sampleCsv } from '../../common/batch/sample.ts';
import { restoreCell } from '../../common/csv-text.ts';
import { parseShippingChoice, resolveShipping, type QuotedMethod } from '../../common/batch/shipping-rule.ts';

const method = (id: number, carrier: string, name: string, price: number, maxDay: number | null): QuotedMethod => ({
  shippingMethodId: id,
  carrier,
  method: name,
  price,
  minDeliveryTime: null,
  maxDeliveryTime: maxDay === null ? null : `2026-11-${String(maxDay).padStart(2, '0')}T18:00:00Z`,
  estimatedDeliveryTime: null,
});
const methods = [method(101, 'POSTNL', 'standard', 540, 26), method(201, 'DHL', 'parcel', 655, 25), method(203, 'DHL', 'express', 2145, 24), method(102, 'POSTNL', 'pickup', 540, 27)];

test('shipping is written as an id, a carrier and method, or a rule', () => {
  assert.deepEqual(parseShippingChoice(' Cheapest '), { kind: 'rule', rule: 'cheapest' });
  assert.deepEqual(parseShippingChoice('FASTEST'), { kind: 'rule', rule: 'fastest' });
  assert.deepEqual(parseShippingChoice('203'), { kind: 'id', id: 203 });
  assert.deepEqual(parseShippingChoice('DHL express'), { kind: 'code', carrier: 'DHL', method: 'express' });
  assert.deepEqual(parseShippingChoice('ups/access_point'), { kind: 'code', carrier: 'ups', method: 'access_point' });
  assert.equal(parseShippingChoice('whatever you think is best'), null);
  assert.equal(parseShippingChoice('-1'), null);
});

test('a method is found by id or by carrier and method code, in any case', () => {
  const byId = resolveShipping(methods, { kind: 'id', id: 201 });
  assert.ok(byId.ok && byId.method.method === 'parcel');
  const byCode = resolveShipping(methods, { kind: 'code', carrier: 'dhl', method: 'EXPRESS' });
  assert.ok(byCode.ok && byCode.method.shippingMethodId === 203);
  const missing = resolveShipping(methods, { kind: 'id', id: 301 }, 'the Netherlands');
  assert.ok(!missing.ok && /301 is not offered to the Netherlands; offered: 101 \(POSTNL standard\)/.test(missing.message));
});

test('cheapest breaks price ties by the faster delivery; fastest by the earlier latest delivery, then price', () => {
  const cheapest = resolveShipping(methods, { kind: 'rule', rule: 'cheapest' });
  assert.ok(cheapest.ok && cheapest.method.shippingMethodId === 101);
  const fastest = resolveShipping(methods, { kind: 'rule', rule: 'fastest' });
  assert.ok(fastest.ok && fastest.method.shippingMethodId === 203);
  const untimed = resolveShipping([method(1, 'X', 'y', 1, null)], { kind: 'rule', rule: 'fastest' });
  assert.ok(!untimed.ok && /no delivery times/.test(untimed.message));
  const none = resolveShipping([], { kind: 'rule', rule: 'cheapest' }, 'AQ');
  assert.ok(!none.ok && /no shipping to AQ/.test(none.message));
});

const row = (cells: string[], extra: Partial<ReportRow> = {}): ReportRow => ({ row: 2, reference: 'R-1', outcome: 'placed', orderId: 'o-1', message: null, cells, ...extra });

test('formula injection is neutralised in every cell of the report (OWASP)', () => {
  const evil = ['=HYPERLINK("http://evil.example","Click")', '+SUM(1,2)', '-2+3', '@cmd', '\tTAB', '\rCR', 'Ada'];
  const csv = reportCsv(['a', 'b', 'c', 'd', 'e', 'f', 'g'], [row(evil, { message: '=1+1' })]);
  assert.ok(csv.startsWith('\uFEFF'));
  const parsed = parseCsv(new TextEncoder().encode(csv));
  assert.ok(parsed.ok);
  if (!parsed.ok) return;
  const cells = parsed.value.records[0].cells;
  assert.deepEqual(cells.slice(10), ["'=HYPERLINK(\"http://evil.example\",\"Click\")", "'+SUM(1,2)", "'-2+3", "'@cmd", "'\tTAB", "'\rCR", 'Ada']);
  assert.equal(cells[4], "'=1+1");
  for (const cell of cells) assert.doesNotMatch(cell, /^[=+\-@\t\r]/);
  assert.equal(neutraliseCell('plain "quoted"'), '"plain ""quoted"""');
  for (const hidden of [' =1+1', '\u00a0=1+1', '\u3000+1', '\uff1d1+1', '  @cmd']) assert.equal(neutraliseCell(hidden), `"'${hidden}"`);
  assert.equal(neutraliseCell('Keizersgracht 1'), '"Keizersgracht 1"');
  // Read back by an import, each cell is what it was; a quote that is the cell's own stays.
  assert.deepEqual(cells.slice(10).map(restoreCell), evil);
  assert.equal(restoreCell("'t Hooft"), "'t Hooft");
});

test('the report lists every row with its outcome, order id, message and shipping, then the original cells', () => {
  const shipping = { carrier: 'DHL', method: 'PARCEL', price: 1295, currency: 'EUR', minDeliveryTime: '2026-11-30T09:00:00Z', maxDeliveryTime: '2026-12-02T18:00:00Z' };
  const rows = [row(['Ada'], { shipping }), row(['Bob'], { row: 3, outcome: 'rejected', orderId: null, message: 'Model does not exist' }), row(['Cy'], { row: 4, outcome: 'skipped', orderId: null })];
  const text = reportCsv(['firstName'], rows);
  const lines = text.slice(1).trim().split('\r\n');
  assert.equal(lines[0], '"Row","Outcome","Service order id","Order reference","Message","Shipped with","Shipping cost","Currency","Delivery from","Delivery by","firstName"');
  assert.match(lines[1], /"DHL PARCEL","12\.95","EUR","2026-11-30","2026-12-02","Ada"$/);
  assert.equal(lines[2], '"3","rejected","","R-1","Model does not exist","","","","","","Bob"');
  // Imported again, the report's own columns match no order field: its shipping is not read as a choice.
  const header = parseCsv(new TextEncoder().encode(text));
  assert.ok(header.ok);
  if (header.ok) assert.deepEqual(Object.keys(autoMap(header.value.header)).sort(), ['firstName', 'orderReference']);
  assert.deepEqual(countOutcomes(rows), { placed: 1, rejected: 1, 'needs-attention': 0, skipped: 1, invalid: 0, cancelled: 0, pending: 0 });
});

test('the sample file parses, maps every column it has and shows a two-row order', () => {
  const parsed = parseCsv(new TextEncoder().encode(sampleCsv(['Cube-binary.stl', 'Star-binary.stl'])));
  assert.ok(parsed.ok);
  if (!parsed.ok) return;
  const mapping = autoMap(parsed.value.header);
  assert.deepEqual(checkMapping(parsed.value.header, mapping), []);
  assert.equal(Object.keys(mapping).length, parsed.value.header.length);
  assert.equal(parsed.value.records.filter((r) => r.cells[0] === 'SHOP-1001').length, 2);
  assert.equal(parsed.value.records[2].cells[3], '1 Main Street, Suite 2');
});
