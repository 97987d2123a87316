import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendAction } from '../../renderer/lib/batch-send.ts';

const fresh = { state: 'draft' as const, sentAt: null, orders: 5, usedElsewhere: 0, queued: 0, rowsWithErrors: 0, ordersWithErrors: 0 };

test('a valid batch sends all its orders, and those sent before are counted out', () => {
  assert.deepEqual(sendAction(fresh), { label: 'Send 5 orders', disabled: false, skipInvalid: false, interrupted: null });
  assert.equal(sendAction({ ...fresh, usedElsewhere: 4 }).label, 'Send 1 new order');
  assert.deepEqual(sendAction({ ...fresh, usedElsewhere: 5 }), { label: 'Nothing new to send', disabled: true, skipInvalid: false, interrupted: null });
});

test('with problems, the send leaves the orders with them out and counts only the valid ones', () => {
  assert.deepEqual(sendAction({ ...fresh, rowsWithErrors: 3, ordersWithErrors: 2 }), { label: 'Send the 3 valid orders', disabled: false, skipInvalid: true, interrupted: null });
  assert.equal(sendAction({ ...fresh, rowsWithErrors: 1, ordersWithErrors: 4 }).label, 'Send the 1 valid order');
  const none = sendAction({ ...fresh, rowsWithErrors: 7, ordersWithErrors: 5 });
  assert.deepEqual([none.label, none.disabled], ['No valid orders to send', true]);
});

test('a send stopped halfway offers the rest, and never blocks its resumption', () => {
  const stopped = { ...fresh, state: 'draft' as const, sentAt: '2026-11-24T10:00:00Z', queued: 2 };
  const action = sendAction(stopped);
  assert.equal(action.label, 'Send the other 3 orders');
  assert.match(action.interrupted ?? '', /after 2 orders of 5 had been queued/);
  assert.equal(sendAction({ ...stopped, rowsWithErrors: 1, ordersWithErrors: 1 }).label, 'Send the other 2 valid orders');
  assert.equal(sendAction({ ...stopped, queued: 5 }).label, 'Resume sending');
});
