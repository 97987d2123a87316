// The method an outbox order goes with, and whether its price is one the user agreed to.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shippingAtSend } from '../../electron/services/orders/shipping-at-send.ts';
import type { ShippingMethod, ShippingRule } from '../../electron/contract/schemas/orders.ts';

const method = (id: number, carrier: string, name: string, price: number, days: number): ShippingMethod => ({
  shippingMethodId: id, carrier, method: name, servicePoint: false, price,
  minDeliveryTime: null, maxDeliveryTime: `2030-01-${String(days).padStart(2, '0')}T18:00:00Z`, estimatedDeliveryTime: null,
});
const OFFERED = [method(101, 'POSTNL', 'standard', 700, 5), method(203, 'DHL', 'express', 2400, 2)];
const recipient = { firstName: '', lastName: '', streetAddress: '', postal: '', city: '', country: 'DE', countryState: '', phoneNumber: '', email: '' };
const byRule = (choice: ShippingRule['choice'], ceiling: number | null) => ({ recipient, shippingMethod: null, shippingRule: { choice, ceiling, seenAt: null } });

test('a method chosen goes at its price or lower, and at the lower price', () => {
  assert.deepEqual(shippingAtSend({ recipient, shippingMethod: { ...OFFERED[0], price: 700 } }, OFFERED), { ok: true, method: OFFERED[0] });
  assert.deepEqual(shippingAtSend({ recipient, shippingMethod: { ...OFFERED[0], price: 900 } }, OFFERED), { ok: true, method: OFFERED[0] });
  const raised = shippingAtSend({ recipient, shippingMethod: { ...OFFERED[0], price: 650 } }, OFFERED);
  assert.ok(!raised.ok && raised.problem.kind === 'price-changed' && raised.problem.before?.price === 650 && raised.problem.after?.price === 700);
  const gone = shippingAtSend({ recipient, shippingMethod: method(999, 'UPS', 'standard', 1, 1) }, OFFERED);
  assert.ok(!gone.ok && gone.problem.kind === 'method-gone');
});

test('a rule picks from what is offered now, within its ceiling', () => {
  assert.deepEqual(shippingAtSend(byRule({ kind: 'rule', rule: 'cheapest' }, 700), OFFERED), { ok: true, method: OFFERED[0] });
  assert.deepEqual(shippingAtSend(byRule({ kind: 'rule', rule: 'fastest' }, 3000), OFFERED), { ok: true, method: OFFERED[1] });
  assert.deepEqual(shippingAtSend(byRule({ kind: 'code', carrier: 'dhl', method: 'EXPRESS' }, 2400), OFFERED), { ok: true, method: OFFERED[1] });
  const over = shippingAtSend(byRule({ kind: 'rule', rule: 'fastest' }, 2000), OFFERED);
  assert.ok(!over.ok && over.problem.kind === 'price-changed');
  assert.equal(over.problem.before?.price, 2000, 'the ceiling is what the user agreed to');
  assert.equal(over.problem.after?.price, 2400);
  assert.match(over.problem.message, /“fastest” now picks DHL express, which costs more than the most you agreed to pay/);
  const code = shippingAtSend(byRule({ kind: 'code', carrier: 'DHL', method: 'express' }, 2000), OFFERED);
  assert.ok(!code.ok && /^DHL express now costs more than the most you agreed to pay/.test(code.problem.message));
});

test('a rule without a ceiling asks first; one that picks nothing says what is offered', () => {
  const unpriced = shippingAtSend(byRule({ kind: 'rule', rule: 'cheapest' }, null), OFFERED);
  assert.ok(!unpriced.ok && unpriced.problem.kind === 'price-changed' && unpriced.problem.before === null && unpriced.problem.after?.shippingMethodId === 101);
  assert.match(unpriced.problem.message, /No price had been seen for “cheapest” to Germany/);
  const none = shippingAtSend(byRule({ kind: 'code', carrier: 'UPS', method: 'standard' }, 1000), OFFERED);
  assert.ok(!none.ok && none.problem.kind === 'method-gone');
  assert.match(none.problem.message, /UPS standard is not offered to Germany; offered: 101 \(POSTNL standard\)/);
  const nothing = shippingAtSend({ recipient, shippingMethod: null, shippingRule: null }, OFFERED);
  assert.ok(!nothing.ok && nothing.problem.kind === 'invalid');
});
