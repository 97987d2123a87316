// "3 orders placed": said once, when the outbox has sent what waited for the service.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSendReport } from '../../electron/services/orders/send-report.ts';
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { emptiedWords, type EmptiedSummary } from '../../common/orders/outbox-words.ts';

const moved = (state: Draft['state']) => ({ state }) as Draft;

test('what the outbox placed after the service came back is told once, when nothing is left', async () => {
  let waiting = 3;
  const told: EmptiedSummary[] = [];
  const report = createSendReport({ waiting: async () => waiting, report: (summary) => told.push(summary) });
  await report.connectivity(false);
  await report.connectivity(true);
  for (const state of ['sending', 'placed', 'needs-attention', 'placed'] as const) {
    if (state !== 'sending') waiting--;
    await report.sent(moved(state));
  }
  assert.deepEqual(told, [{ placed: 2, needAttention: 1 }]);
  // Orders placed with the service there all along are no news.
  waiting = 1;
  await report.sent(moved('placed'));
  waiting = 0;
  await report.sent(moved('placed'));
  assert.equal(told.length, 1);
});

test('back with nothing waiting says nothing, and does not count the next order placed online', async () => {
  const told: EmptiedSummary[] = [];
  const report = createSendReport({ waiting: async () => 0, report: (summary) => told.push(summary) });
  await report.connectivity(false);
  await report.connectivity(true);
  await report.sent(moved('placed'));
  assert.deepEqual(told, []);
});

test('the words: how many were placed, and what needs the user', () => {
  assert.deepEqual(emptiedWords({ placed: 3, needAttention: 0 }), { title: '3 orders placed', body: 'The Outbox sent the orders that waited for the service.' });
  assert.equal(emptiedWords({ placed: 1, needAttention: 2 }).body, 'The Outbox sent the orders that waited for the service. 2 orders need your attention in Orders.');
  assert.deepEqual(emptiedWords({ placed: 0, needAttention: 1 }), { title: '1 order needs your attention', body: 'It waited in the Outbox and was not placed: see Orders.' });
});
