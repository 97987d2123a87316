import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyOrderContent, emptyRecipient, type Draft } from '../../electron/schemas/orders.ts';
import { orderMatches } from '../../renderer/lib/order-search.ts';

const draft = (recipient: Partial<Draft['recipient']>, orderId?: string): Draft =>
  ({
    id: 'd', orderReference: 'PD-1234-abcd', projectId: 'p', state: orderId ? 'placed' : 'draft',
    recipient: { ...emptyRecipient(), ...recipient }, models: [], shippingMethod: null, orderContent: emptyOrderContent(),
    order: orderId ? { orderId, status: 'received' } : null,
  }) as unknown as Draft;

test('every word typed must be found, ignoring case and accents, in the recipient, reference or order number', () => {
  const zoe = draft({ firstName: 'Zoë', lastName: 'Martins', city: 'Porto', country: 'PT', email: 'zoe@example.pt' }, 'ORD-778');
  assert.ok(orderMatches(zoe, 'zoe porto'));
  assert.ok(orderMatches(zoe, '  MARTINS  '));
  assert.ok(orderMatches(zoe, 'portugal'), 'by the country name, not only its code');
  assert.ok(orderMatches(zoe, 'ord-778'));
  assert.ok(orderMatches(zoe, 'pd-1234'));
  assert.ok(orderMatches(zoe, ''));
  assert.ok(!orderMatches(zoe, 'zoe lisbon'));
  assert.ok(!orderMatches(draft({ firstName: 'Ana' }), 'ord-778'));
});
