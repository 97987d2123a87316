import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { bulkOutcome, bulkTargets, cancelQuestion, deleteQuestion } from '../../renderer/lib/order-bulk.ts';

const order = (id: string, state: Draft['state'], extra: Partial<Draft> = {}) => ({ id, state, held: false, unanswered: false, order: null, orderReference: `R-${id}`, ...extra }) as Draft;
const placed = (id: string, status: string) => order(id, 'placed', { order: { orderId: id, status, createdAt: null, shippingPrice: null, currency: null } });

test('each action over a selection acts only on the orders it fits; Cancel only where the service still cancels', () => {
  const selection = [
    placed('received', 'received'), placed('making', 'in_production'), placed('shipped', 'shipped'), placed('cancelled', 'cancelled'),
    order('queued', 'queued'), order('held', 'queued', { held: true }), order('maybe', 'queued', { unanswered: true }),
    order('rejected', 'rejected'), order('draft', 'draft'), order('sending', 'sending'),
  ];
  const ids = (drafts: Draft[]) => drafts.map((d) => d.id);
  const targets = bulkTargets(selection);
  assert.deepEqual(ids(targets.cancel), ['received', 'making']);
  assert.deepEqual(ids(targets.hold), ['queued'], 'not an order whose last answer was lost: it may be placed already');
  assert.deepEqual(ids(targets.release), ['held']);
  assert.deepEqual(ids(targets.retry), ['rejected']);
  assert.deepEqual(ids(targets.delete), ['rejected', 'draft']);
});

test('the cancel question names how many orders, and what it leaves out', () => {
  const question = cancelQuestion(12, 15);
  assert.equal(question.title, 'Cancel 12 orders?');
  assert.equal(question.confirmLabel, 'Cancel 12 orders');
  assert.match(question.body, /These 12 orders are cancelled at the service/);
  assert.match(question.body, /The other 3 selected orders cannot be cancelled/);
  assert.equal(cancelQuestion(1, 1).title, 'Cancel 1 order?');
  // Staying is said of what is asked about: one order, or them.
  assert.deepEqual([question.cancelLabel, cancelQuestion(1, 1).cancelLabel], ['Keep them', 'Keep it']);
  assert.match(deleteQuestion([order('a', 'needs-attention')]).body, /may already be held by the service/);
});

test('what an action did reads in one line, naming each order it could not act on and why', () => {
  const done = [order('a', 'placed')];
  assert.deepEqual(bulkOutcome('cancel', { done: [...done, ...done], failed: [] }), { text: '2 orders cancelled.', failed: false });
  const failed = Array.from({ length: 5 }, (_, i) => ({ id: `f${i}`, reference: `SHOP-${i}`, message: 'The service cannot be reached' }));
  const outcome = bulkOutcome('hold', { done, failed });
  assert.equal(outcome.failed, true);
  assert.match(outcome.text, /^1 of 6 orders held in the outbox\. SHOP-0: The service cannot be reached; SHOP-1/);
  assert.match(outcome.text, /And 2 more\.$/);
});
