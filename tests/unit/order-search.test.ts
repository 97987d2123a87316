import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { ordersCsv } from '../../renderer/lib/orders-csv.ts';
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

test('the orders listed export as a spreadsheet: one row each, a header, prices in units, formulas neutralised', () => {
  const placed = {
    ...draft({ firstName: '=HYPERLINK("x")', lastName: 'Martins', city: 'Porto', country: 'PT' }, 'ORD-778'),
    models: [{ modelId: 'm1', quantity: 2, name: 'Knob' }, { modelId: 'm2', quantity: 1 }],
    shippingMethod: { shippingMethodId: 1, carrier: 'POSTNL', method: 'Pickup', price: 430 },
    order: { orderId: 'ORD-778', status: 'cancelled', createdAt: '2026-11-24T10:00:00Z', shippingPrice: 430, currency: 'EUR' },
  } as unknown as Draft;
  const text = ordersCsv([placed]);
  assert.ok(text.startsWith('\uFEFF"Order reference","State","Service order"'));
  const [, row] = text.slice(1).trim().split('\r\n');
  assert.match(row, /^"PD-1234-abcd","Cancelled","ORD-778","cancelled"/);
  assert.ok(row.includes(`"'=HYPERLINK(""x"")"`), row);
  assert.ok(row.includes('"Portugal"'));
  assert.ok(row.includes('"Knob m1 × 2; m2 × 1","3","POSTNL","Pickup","4.30","EUR"'), row);
});
