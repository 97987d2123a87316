import assert from 'node:assert/strict';
import { test } from 'node:test';
import { autoMap, checkMapping, layoutKey, normalizeHeader } from '../../common/batch/mapping.ts';

test('header names are compared without case, accents or punctuation', () => {
  assert.equal(normalizeHeader(' E-Mail '), 'email');
  assert.equal(normalizeHeader('Prénom'), 'prenom');
  assert.equal(normalizeHeader('Postal_Code'), 'postalcode');
});

test('our own column names map one to one', () => {
  const header = ['orderReference', 'firstName', 'lastName', 'streetAddress', 'postal', 'city', 'country', 'countryState', 'phoneNumber', 'email', 'modelId', 'modelName', 'quantity', 'shippingMethod', 'carrier', 'method', 'configIds', 'externalConfigIds', 'stockIds'];
  const mapping = autoMap(header);
  for (const [i, name] of header.entries()) assert.equal(mapping[name as keyof typeof mapping], i, name);
});

test('the way shops and spreadsheets name columns is understood, in several languages', () => {
  assert.deepEqual(autoMap(['Order ID', 'First name', 'Last name', 'Address', 'ZIP', 'City', 'Country', 'State', 'Phone', 'E-mail', 'Model file', 'Qty']), {
    orderReference: 0, firstName: 1, lastName: 2, streetAddress: 3, postal: 4, city: 5, country: 6, countryState: 7, phoneNumber: 8, email: 9, modelName: 10, quantity: 11,
  });
  assert.deepEqual(autoMap(['Voornaam', 'Achternaam', 'Straat', 'Postcode', 'Plaats', 'Land', 'Aantal', 'Bestand']), {
    firstName: 0, lastName: 1, streetAddress: 2, postal: 3, city: 4, country: 5, quantity: 6, modelName: 7,
  });
});

test('prefixed export columns match, and an exact name wins over a prefixed one', () => {
  const mapping = autoMap(['Shipping City', 'Shipping Zip', 'Lineitem quantity', 'City', 'Shipping Method', 'Notes']);
  assert.equal(mapping.city, 3);
  assert.equal(mapping.postal, 1);
  assert.equal(mapping.quantity, 2);
  assert.equal(mapping.shippingMethod, 4);
  assert.equal(Object.values(mapping).includes(5), false, 'unknown columns stay unmapped');
});

test("the column that names a field best wins: a report's Order reference over an Order id or Order number before it", () => {
  assert.equal(autoMap(['Row', 'Outcome', 'Order id', 'Order reference', 'Message', 'Order Number', 'First name']).orderReference, 3);
  assert.equal(autoMap(['Row', 'Outcome', 'Service order id', 'Order reference', 'Message']).orderReference, 3);
  assert.equal(autoMap(['Order Number', 'Reference']).orderReference, 1);
  assert.equal(autoMap(['Service order id', 'First name']).orderReference, undefined, 'the service\'s id is no reference');
});

test('the layout key is stable for the same header and differs for another', () => {
  const a = layoutKey(['First name', 'City']);
  assert.equal(a, layoutKey(['first_name', 'CITY']));
  assert.notEqual(a, layoutKey(['City', 'First name']));
  assert.notEqual(a, layoutKey(['First name', 'City', 'Email']));
  assert.match(a, /^csv-2-[0-9a-f]{8}$/);
});

test('missing columns are named; extra columns are fine', () => {
  const header = ['firstName', 'lastName', 'city', 'notes', 'internal id'];
  const problems = checkMapping(header, autoMap(header));
  const fields = problems.map((p) => p.field);
  assert.deepEqual(fields, ['streetAddress', 'postal', 'country', 'email', 'modelId']);
  assert.match(problems[0].message, /No column for Street address/);
});

test('a column used twice, a column that does not exist, and half a carrier pair are refused', () => {
  const header = ['firstName', 'lastName', 'streetAddress', 'postal', 'city', 'country', 'email', 'modelId', 'carrier'];
  const mapping = { ...autoMap(header), lastName: 0, quantity: 12 };
  const messages = checkMapping(header, mapping).map((p) => p.message);
  assert.ok(messages.some((m) => /mapped to both First name and Last name/.test(m)));
  assert.ok(messages.some((m) => /column 13, which the file does not have/.test(m)));
  assert.ok(messages.some((m) => /carrier code and a delivery method code are only used together/.test(m)));
});
