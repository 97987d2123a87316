// The order form's words and starting values offline: fields named, what shipping waits for, rules and
// ceilings as typed, what a kept quote was for, and sizes in the unit chosen.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldNames, missingForShipping, startingRule } from '../../renderer/lib/order-form.ts';
import { quoteFor, sideInCm } from '../../renderer/lib/quote-words.ts';
import { centsText, pickedBy, ruleName, typedCents } from '../../renderer/lib/shipping-rules.ts';
import { readableLengthIn, readableSizeIn } from '../../common/readable-number.ts';
import type { Quote } from '../../electron/contract/schemas/orders.ts';

test('the fields that need attention by name, each once, in the order the form shows them', () => {
  assert.equal(fieldNames({ email: 'x', postal: 'y', 'models.0.quantity': 'z', 'models.1.modelId': 'w', shippingMethod: 'v' }), 'Postal code, Email, Models, Shipping');
  assert.equal(fieldNames({ shippingMethod: 'v', 'models.0.quantity': 'z', email: 'x', country: 'c', firstName: 'f' }), 'First name, Country, Email, Models, Shipping');
});

test('what shipping methods wait for, and the rule a new order starts with', () => {
  assert.equal(missingForShipping('', 0), 'a country and models');
  assert.equal(missingForShipping('NL', 0), 'models');
  assert.equal(missingForShipping('', 2), 'a country');
  assert.equal(missingForShipping('NL', 1), null);
  const cheapest = { kind: 'rule', rule: 'cheapest' } as const;
  assert.deepEqual(startingRule({}, cheapest), { choice: cheapest, ceiling: null, seenAt: null });
  assert.equal(startingRule({ draftId: 'd' }, cheapest), null, 'a draft keeps its own');
  assert.equal(startingRule({}, null), null);
});

test('a ceiling as typed, and a rule as read', () => {
  assert.equal(typedCents('7,50'), 750);
  assert.equal(typedCents(' 12 '), 1200);
  assert.equal(typedCents(''), null);
  assert.ok(Number.isNaN(typedCents('seven') as number));
  assert.ok(Number.isNaN(typedCents('-1') as number));
  assert.equal(centsText(750), '7.50');
  assert.equal(ruleName({ choice: { kind: 'code', carrier: 'POSTNL', method: 'servicepoint' }, ceiling: 495, seenAt: null }), 'PostNL Service point, at most €4.95');
  assert.equal(ruleName({ choice: { kind: 'rule', rule: 'fastest' }, ceiling: null, seenAt: null }), 'Fastest, price to be agreed when sent');
  const quote: Quote = { country: 'NL', currency: 'EUR', quotedAt: '2030-01-01T00:00:00Z', methods: [
    { shippingMethodId: 1, carrier: 'A', method: 'x', servicePoint: false, price: 900, minDeliveryTime: null, maxDeliveryTime: null, estimatedDeliveryTime: null },
    { shippingMethodId: 2, carrier: 'B', method: 'y', servicePoint: false, price: 500, minDeliveryTime: null, maxDeliveryTime: null, estimatedDeliveryTime: null },
  ] };
  assert.equal(pickedBy({ kind: 'rule', rule: 'cheapest' }, quote)?.shippingMethodId, 2);
  assert.equal(pickedBy({ kind: 'rule', rule: 'cheapest' }, null), null);
});

test('what a kept quote was for, and a parcel side typed in inches', () => {
  assert.equal(quoteFor({ country: 'NL', models: [{ modelId: '0f8fad5b-d9cb-469f-a165-70867728950e', quantity: 2, name: 'Moon' }, { modelId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', quantity: 1 }] }), '2 × Moon, 1 × 7c9e6679…');
  assert.equal(quoteFor({ country: 'NL', package: { weight: 800, length: 20, width: 15, height: 10 } }), 'a parcel of 800 g, 20 × 15 × 10 cm');
  assert.equal(quoteFor({ country: 'NL', package: { weight: 800, length: null, width: null, height: null } }), 'a parcel of 800 g');
  assert.equal(sideInCm(10, 'in'), 25.4);
  assert.equal(sideInCm(10, 'mm'), 10);
  assert.equal(sideInCm(null, 'in'), null);
});

test('sizes in millimetres or inches', () => {
  assert.equal(readableSizeIn([25.4, 50.8, 2.54], 'in', 'en-US'), '1.00 × 2.00 × 0.10 in');
  assert.equal(readableSizeIn([12.5, 3, 100], 'mm', 'en-US'), '12.5 × 3.00 × 100.0 mm');
  assert.equal(readableLengthIn(254, 'in', 'en-US'), '10.0 in');
});
