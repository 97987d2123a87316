// Carrier and method codes as the quote, the order form and the order list show them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { carrierName, deliveryPlace, methodName, shippingName } from '../../renderer/lib/format.ts';

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

test('where a method delivers is said once: beside a name that does not say it, not beside one that does', () => {
  assert.equal(deliveryPlace({ method: 'standard', servicePoint: false }), 'to the door');
  assert.equal(deliveryPlace({ method: 'pickup', servicePoint: true }), 'at a service point');
  assert.equal(deliveryPlace({ method: 'servicepoint', servicePoint: true }), null);
  assert.equal(deliveryPlace({ method: 'ACCESS_POINT', servicePoint: true }), null);
  assert.equal(deliveryPlace({ method: 'parcel_locker', servicePoint: true }), null);
});
