// Carrier and method codes as the quote, the order form and the order list show them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { carrierName, methodName, shippingName } from '../../renderer/lib/format.ts';

test('carriers read as their own names; unknown codes read as words', () => {
  assert.equal(carrierName('POSTNL'), 'PostNL');
  assert.equal(carrierName('dhl'), 'DHL');
  assert.equal(carrierName('SWISS_POST'), 'Swiss Post');
  assert.equal(carrierName('XYZ'), 'XYZ');
  assert.equal(methodName('SERVICE_POINT'), 'Service point');
  assert.equal(methodName('express'), 'Express');
  assert.equal(methodName('servicepoint'), 'Service point');
  assert.equal(shippingName({ carrier: 'DHL', method: 'servicepoint' }), 'DHL Service point');
});
