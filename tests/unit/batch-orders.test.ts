import assert from 'node:assert/strict';
import { test } from 'node:test';
import { autoMap } from '../../common/batch/mapping.ts';
import { parseCsv } from '../../common/batch/parse-csv.ts';
import { createHash } from 'node:crypto';
import { withReferences } from '../../common/batch/references.ts';
import { isSendable, rowsToOrders, type ModelLookup } from '../../common/batch/rows-to-orders.ts';

const CUBE = '0f8fad5b-d9cb-469f-a165-70867728950e';
const STAR = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const MOON_A = '11111111-1111-4111-8111-111111111111';
const MOON_B = '22222222-2222-4222-8222-222222222222';
const models: ModelLookup = new Map<string, string | string[]>([
  ['cube', CUBE],
  ['cube.stl', CUBE],
  ['star.obj', STAR],
  ['moon', [MOON_A, MOON_B]],
]);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const HEADER = 'orderReference,firstName,lastName,streetAddress,postal,city,country,countryState,phoneNumber,email,modelName,quantity,shippingMethod';
const ADA = 'Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,,+31 20 123 4567,ada@example.com';

function run(text: string, lookup: ModelLookup = models, projectId = 'project-1') {
  const parsed = parseCsv(new TextEncoder().encode(text));
  if (!parsed.ok) assert.fail(parsed.error.message);
  const { header, records } = parsed.value;
  const mapping = autoMap(header);
  return rowsToOrders({ header, records: withReferences(records, mapping, projectId, sha256), mapping, models: lookup });
}

test('rows sharing a reference form one order; later rows may leave the recipient blank', () => {
  const { orders, errors } = run(`${HEADER}\nS-1,${ADA},Cube.STL,2,cheapest\nS-1,,,,,,,,,,star.obj,1,\nS-2,${ADA},cube,1,201\n`);
  assert.deepEqual(errors, []);
  assert.equal(orders.length, 2);
  const [first, second] = orders;
  assert.equal(first.reference, 'S-1');
  assert.deepEqual(first.rows, [2, 3]);
  assert.deepEqual(first.models, [{ modelId: CUBE, quantity: 2, name: 'Cube.STL' }, { modelId: STAR, quantity: 1, name: 'star.obj' }]);
  assert.equal(first.recipient.city, 'Amsterdam');
  assert.deepEqual(first.shipping, { kind: 'rule', rule: 'cheapest' });
  assert.deepEqual(second.shipping, { kind: 'id', id: 201 });
});

test('a row of the same order that contradicts the first is an error naming both rows', () => {
  const { errors } = run(`${HEADER}\nS-1,${ADA},cube,1,\nS-1,Ada,Lovelace,Other street 2,1015 CJ,Amsterdam,NL,,,,star.obj,1,fastest\nS-1,,,,,,,,,,cube,1,cheapest\n`);
  assert.deepEqual(
    errors.map((e) => [e.row, e.column, e.message]),
    [
      [3, 'streetAddress', 'Differs from row 2 of the same order ("Keizersgracht 1")'],
      [4, 'shippingMethod', 'Differs from the shipping of row 3 of the same order (fastest)'],
    ],
  );
});

test('rows without a reference get one from what they order: the same again after other rows change, another when they change', () => {
  const BOB = 'Bob,Baker,Damrak 1,1012 LG,Amsterdam,NL,,+31 20 555 0100,bob@example.com';
  const text = `${HEADER}\n,${ADA},cube,1,\n,${ADA},cube,1,\n,${BOB},cube,2,\n`;
  const once = run(text).orders.map((o) => o.reference);
  assert.equal(once.length, 3);
  for (const reference of once) assert.match(reference, /^PDB-[0-9a-f]{16}-[12]$/);
  // Two identical rows are two orders: same content, counted apart.
  assert.equal(once[0].slice(0, -2), once[1].slice(0, -2));
  assert.deepEqual([once[0].slice(-1), once[1].slice(-1)], ['1', '2']);
  assert.deepEqual(run(text).orders.map((o) => o.reference), once);
  // A row added on top, spacing changed, and an edited Bob: Ada's orders keep their references, Bob's changes.
  const edited = `${HEADER}\n,Cy,Coder,Main St 5,1015 CJ,Amsterdam,NL,,,cy@example.com,cube,1,\n,${ADA.replace('Keizersgracht 1', ' Keizersgracht  1 ')},cube,1,\n,${ADA},cube,1,\n,${BOB},cube,3,\n`;
  const again = run(edited).orders.map((o) => o.reference);
  assert.deepEqual(again.slice(1, 3), once.slice(0, 2));
  assert.notEqual(again[3], once[2]);
  assert.ok(!once.includes(again[0]));
  // A country written out and a postal code without its space are the same orders.
  const respelled = run(text.replaceAll(',NL,', ',Netherlands,').replaceAll('1015 CJ', '1015CJ')).orders.map((o) => o.reference);
  assert.deepEqual(respelled.slice(0, 2), once.slice(0, 2));
  // The model named with its extension, or its name column left out where an id column gives it: the same orders.
  assert.deepEqual(run(text.replaceAll(',cube,', ',cube.stl,')).orders.map((o) => o.reference), once);
  const both = `firstName,lastName,streetAddress,postal,city,country,email,modelId,modelName,quantity\nAda,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,${CUBE},cube,1\n`;
  assert.deepEqual(run(both.replace('modelName', 'note')).orders.map((o) => o.reference), run(both).orders.map((o) => o.reference));
  // The phone column left unmapped (on a later import of the same layout): the same orders.
  const unmapped = run(text.replace('phoneNumber', 'note')).orders.map((o) => o.reference);
  assert.deepEqual(unmapped, once);
  // The same rows in another project are other orders.
  assert.ok(run(text, models, 'project-2').orders.every((o) => !once.includes(o.reference)));
});

test('model names resolve without case and extension; unknown, ambiguous and foreign ids are errors', () => {
  const { errors, orders } = run(`${HEADER}\nA,${ADA},CUBE.stl,1,\nB,${ADA},nothing.stl,1,\nC,${ADA},Moon,1,\nD,${ADA},,1,\n`);
  assert.equal(orders[0].models[0].modelId, CUBE);
  assert.deepEqual(
    errors.map((e) => [e.row, e.column, e.message]),
    [
      [3, 'modelName', 'No model named "nothing.stl" in this project'],
      [4, 'modelName', '2 models in this project are named "Moon": use the model id instead'],
      [5, 'modelName', 'No model: give a model id or a model file name'],
    ],
  );
  const byId = run(`firstName,lastName,streetAddress,postal,city,country,email,modelId\n${'Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com'},${STAR.toUpperCase()}\nAda,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,33333333-3333-4333-8333-333333333333\nAda,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,not-a-guid\n`);
  assert.equal(byId.orders[0].models[0].modelId, STAR);
  assert.deepEqual(byId.errors.map((e) => [e.row, e.column]), [[3, 'modelId'], [4, 'modelId']]);
  assert.match(byId.errors[0].message, /is not in this project/);
});

test('quantities are whole numbers from 1; the column may be left out (1 each)', () => {
  const { errors } = run(`${HEADER}\nA,${ADA},cube,0,\nB,${ADA},cube,1.5,\nC,${ADA},cube,,\nD,${ADA},cube,two,\nE,${ADA},cube, 3 ,\n`);
  assert.deepEqual(errors.map((e) => [e.row, e.column, e.message]), [
    [2, 'quantity', 'At least 1'],
    [3, 'quantity', '"1.5" is not a whole number of 1 or more'],
    [4, 'quantity', 'Required: a whole number of 1 or more'],
    [5, 'quantity', '"two" is not a whole number of 1 or more'],
  ]);
  const noQuantity = run(`firstName,lastName,streetAddress,postal,city,country,email,model\nAda,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,cube\n`);
  assert.equal(noQuantity.orders[0].models[0].quantity, 1);
});

test("the service's rules hold an order back; our own are warnings beside the cell, and the order goes", () => {
  const { errors, orders } = run(`${HEADER}\nA,Ada,,Keizersgracht 1,99999,Amsterdam,NL,,12,ada-at-example,cube,1,\nB,Bob,Smith,1 Main St,10001,New York,US,,,bob@example.com,cube,1,\nC,Cy,Doe,Main 1,1000,Brussels,XX,,,cy@example.com,cube,1,\nD,Dee,Ruiz,Calle Mayor 1,28013,Madrid,ES,,+34 912 345 678,dee@example.com,cube,1,\n`);
  assert.deepEqual(errors.map((e) => [e.row, e.column, e.kind, e.message]), [
    [2, 'lastName', 'error', 'Required'],
    [2, 'postal', 'warning', 'Not shaped like a postal code of the Netherlands: check it (it is sent as it is)'],
    [2, 'phoneNumber', 'error', 'Too short: the service takes 5 to 30 digits and signs after the +'],
    [2, 'email', 'error', 'Not an email address'],
    [3, 'countryState', 'warning', 'Carriers to the United States usually want a state or province'],
    [4, 'country', 'error', 'XX is not a known country code'],
    // Spain without a province: the service does not ask for one (docs/api-assumptions.md), so it is sent.
    [5, 'countryState', 'warning', 'Carriers to Spain usually want a state or province'],
  ]);
  assert.deepEqual(orders.filter(isSendable).map((o) => o.reference), ['B', 'D']);
});

test('a required field without a column says so; a country name becomes its code, and the review says so', () => {
  const { errors, orders } = run(`firstName,lastName,streetAddress,postal,city,country,email,model\nBob,Smith,1 Main St,10001,New York,United States,bob@example.com,cube\n`);
  assert.equal(orders[0].recipient.country, 'US');
  assert.deepEqual(errors.map((e) => [e.row, e.column, e.kind, e.message]), [
    [2, null, 'warning', 'Carriers to the United States usually want a state or province (the file has no column for it)'],
    [2, 'country', 'note', '"United States" read as US'],
  ]);
});

test('an ambiguous country name is flagged with what it could be, never guessed', () => {
  const { errors, orders } = run(`firstName,lastName,streetAddress,postal,city,country,email,model\nNino,Beridze,Rustaveli 12,0108,Tbilisi,Georgia,nino@example.com,cube\nAna,Mbala,Avenue 1,BP 12,Brazzaville,Congo,ana@example.com,cube\n`);
  assert.deepEqual(errors.filter((e) => e.kind === 'error').map((e) => [e.row, e.column]), [[2, 'country'], [3, 'country']]);
  assert.match(errors[0].message, /could be the country Georgia \(GE\) or the US state/);
  assert.equal(orders.filter(isSendable).length, 0);
});

test('cells beyond the header are refused when they hold something; empty trailing cells are fine', () => {
  const { errors } = run(`${HEADER}\nA,${ADA},cube,1,,\nB,${ADA},cube,1,,oops\n`);
  assert.deepEqual(errors.map((e) => [e.row, e.column]), [[3, 'Column 14']]);
});

test('line breaks in an address become commas; other control characters are refused', () => {
  const { orders, errors } = run(`${HEADER}\nA,Ada,Lovelace,"Keizersgracht 1\r\nApt 2",1015 CJ,Amsterdam,NL,,,ada@example.com,cube,1,\nB,"Bo\u0007b",Smith,Main 1,1015 CJ,Amsterdam,NL,,,b@example.com,cube,1,\n`);
  assert.equal(orders[0].recipient.streetAddress, 'Keizersgracht 1, Apt 2');
  assert.deepEqual(errors.map((e) => [e.row, e.column]), [[3, 'firstName']]);
});

test('order content ids are split and merged across the rows of an order', () => {
  const { orders } = run(`orderReference,firstName,lastName,streetAddress,postal,city,country,email,model,configIds,stockIds\nA,Ada,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,cube,"c1, c2",s1\nA,,,,,,,,star.obj,c2;c3,\n`);
  assert.deepEqual(orders[0].orderContent, { ConfigIds: ['c1', 'c2', 'c3'], ExternalConfigIds: [], StockIds: ['s1'] });
});

test('carrier and method columns choose a method; an unknown shipping text is an error', () => {
  const { orders, errors } = run(`firstName,lastName,streetAddress,postal,city,country,email,model,carrier,method,shipping\nAda,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,cube,DHL,parcel,\nAda,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,cube,DHL,,\nAda,Lovelace,Keizersgracht 1,1015 CJ,Amsterdam,NL,ada@example.com,cube,,,by air mail\n`);
  assert.deepEqual(orders[0].shipping, { kind: 'code', carrier: 'DHL', method: 'parcel' });
  assert.deepEqual(errors.map((e) => [e.row, e.column]), [[3, 'method'], [4, 'shipping']]);
});

test('an order of more than 100 models is refused at the 101st row', () => {
  const rows = Array.from({ length: 101 }, () => `BIG,${ADA},cube,1,`).join('\n');
  const { errors } = run(`${HEADER}\n${rows}\n`);
  assert.deepEqual(errors.map((e) => e.row), [102]);
});

test('10,000 rows are turned into 10,000 validated orders', () => {
  const rows = Array.from({ length: 10_000 }, (_, i) => `,${ADA},cube,${1 + (i % 3)},`).join('\n');
  const { orders, errors } = run(`${HEADER}\n${rows}\n`);
  assert.equal(orders.length, 10_000);
  assert.equal(errors.length, 0);
  assert.deepEqual(orders.slice(0, 3).map((order) => order.models[0].quantity), [1, 2, 3]);
});
