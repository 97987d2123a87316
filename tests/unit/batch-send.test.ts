import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendAction } from '../../renderer/lib/batch-send.ts';

const fresh = { state: 'draft' as const, sentAt: null, orders: 5, usedElsewhere: 0, queued: 0, rowsWithErrors: 0, sendable: 5 };

test('a valid batch sends all its orders, and those sent before are counted out', () => {
  assert.deepEqual(sendAction(fresh), { label: 'Send 5 orders', disabled: false, skipInvalid: false, interrupted: null });
  assert.equal(sendAction({ ...fresh, usedElsewhere: 4, sendable: 1 }).label, 'Send 1 new order');
  assert.deepEqual(sendAction({ ...fresh, usedElsewhere: 5, sendable: 0 }), { label: 'Nothing new to send', disabled: true, skipInvalid: false, interrupted: null });
});

test('with problems, the send leaves the orders with them out and counts only the valid ones', () => {
  assert.deepEqual(sendAction({ ...fresh, rowsWithErrors: 3, sendable: 3 }), { label: 'Send the 3 valid orders', disabled: false, skipInvalid: true, interrupted: null });
  assert.equal(sendAction({ ...fresh, rowsWithErrors: 1, sendable: 1 }).label, 'Send the 1 valid order');
  const none = sendAction({ ...fresh, rowsWithErrors: 7, sendable: 0 });
  assert.deepEqual([none.label, none.disabled], ['No valid orders to send', true]);
  // 3 sent before, 2 of which now have problems: the 2 others are still sent (the host counts them).
  assert.equal(sendAction({ ...fresh, usedElsewhere: 3, rowsWithErrors: 2, sendable: 2 }).label, 'Send the 2 valid orders');
});

test('a send stopped halfway offers the rest, and never blocks its resumption', () => {
  const stopped = { ...fresh, state: 'draft' as const, sentAt: '2026-11-24T10:00:00Z', queued: 2, sendable: 3 };
  const action = sendAction(stopped);
  assert.equal(action.label, 'Send the other 3 orders');
  assert.match(action.interrupted ?? '', /after 2 orders of 5 had been queued.*Send queues the other 3 orders/);
  const withProblems = sendAction({ ...stopped, rowsWithErrors: 1, sendable: 2 });
  assert.equal(withProblems.label, 'Send the other 2 valid orders');
  assert.match(withProblems.interrupted ?? '', /Send queues the other 2 valid orders/);
  assert.deepEqual([sendAction({ ...stopped, rowsWithErrors: 1, sendable: 0 }).label, sendAction({ ...stopped, rowsWithErrors: 1, sendable: 0 }).disabled], ['Resume sending', false]);
  assert.equal(sendAction({ ...stopped, queued: 5, sendable: 0 }).label, 'Resume sending');
});
