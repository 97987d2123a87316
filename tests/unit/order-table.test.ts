import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyOrderContent, emptyRecipient } from '../../common/orders/empty.ts';
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { inTab, noFilters, NO_BATCH, orderRow, rangeDays, rowFilter, sortRows, type OrderFilters } from '../../renderer/lib/order-table.ts';

let made = 0;
function draft(patch: Partial<Draft> & { name?: string; country?: string; city?: string; status?: string; placedAt?: string }): Draft {
  made++;
  const { name = 'Ada Lovelace', country = 'NL', city = 'Amsterdam', status, placedAt, ...rest } = patch;
  const [firstName, lastName] = name.split(' ');
  const state = rest.state ?? (status ? 'placed' : 'draft');
  return {
    id: `d${made}`,
    orderReference: `PD-${made}`,
    projectId: 'p',
    state,
    recipient: { ...emptyRecipient(), firstName, lastName, country, city },
    models: [{ modelId: '0f8fad5b-d9cb-469f-a165-70867728950e', quantity: 1, name: 'Moon' }],
    shippingMethod: { shippingMethodId: 101, carrier: 'POSTNL', method: 'Pickup', servicePoint: true, price: 430, minDeliveryTime: null, maxDeliveryTime: null, estimatedDeliveryTime: null, quotedAt: '2026-11-24T10:00:00Z' },
    orderContent: emptyOrderContent(),
    problem: null,
    order: status ? { orderId: `o${made}`, status, createdAt: placedAt ?? '2026-11-24T12:00:00Z', shippingPrice: 430, currency: 'EUR' } : null,
    attempts: 0,
    unanswered: false,
    nextAttemptAt: null,
    held: false,
    batch: null,
    createdAt: `2026-11-2${made % 4}T08:00:00Z`,
    updatedAt: '2026-11-24T08:00:00Z',
    ...rest,
  };
}

const filters = (patch: Partial<OrderFilters>): OrderFilters => ({ ...noFilters(), ...patch });

test('a row reads as the table shows it: recipient, country name, models with quantities, the price as quoted or charged', () => {
  const queued = draft({ state: 'queued', name: 'Zoë Martins', country: 'PT', models: [{ modelId: 'a', quantity: 2, name: 'Knob' }, { modelId: '1234567890ab', quantity: 1 }] });
  const row = orderRow(queued);
  assert.equal(row.recipient, 'Zoë Martins');
  assert.equal(row.country, 'Portugal');
  assert.equal(row.models, 'Knob ×2, 12345678…');
  assert.equal(row.price, 430);
  assert.equal(row.quotedAt, '2026-11-24T10:00:00Z', 'an order not placed shows how old its price is');
  assert.equal(row.standing.label, 'In the outbox');
  assert.equal(orderRow(queued), row, 'made once per version of the order');
  // A model named by the library once it is asked.
  assert.equal(orderRow(queued, new Map([['1234567890ab', 'Cube']])).models, 'Knob ×2, Cube');

  const placed = orderRow(draft({ status: 'in_production' }));
  assert.equal(placed.standing.label, 'In production');
  assert.equal(placed.quotedAt, null, 'a placed order shows what was charged');
  assert.equal(orderRow(draft({ state: 'queued', held: true })).standing.label, 'On hold');
});

test('the filters combine: status tab, service status, batch, country, days and words', () => {
  const fromBatch = { batchId: 'b1', fileName: 'shop.csv', importedAt: '2026-11-20T09:00:00Z', rows: [4] };
  const rows = [
    draft({ name: 'Ada Lovelace', country: 'NL', status: 'shipped', placedAt: '2026-11-24T12:00:00Z', batch: fromBatch }),
    draft({ name: 'Grace Hopper', country: 'NL', status: 'received', placedAt: '2026-11-10T12:00:00Z' }),
    draft({ name: 'Alan Turing', country: 'DE', status: 'shipped', placedAt: '2026-11-24T15:00:00Z', batch: fromBatch }),
    draft({ name: 'Ada Byron', country: 'NL', state: 'draft' }),
  ].map((d) => orderRow(d));
  const names = (f: OrderFilters) => rows.filter(rowFilter(f, new Date(2026, 10, 24, 18))).filter((r) => inTab(f.tab, r)).map((r) => r.recipient);

  assert.deepEqual(names(filters({ tab: 'placed', country: 'NL' })), ['Ada Lovelace', 'Grace Hopper']);
  assert.deepEqual(names(filters({ tab: 'placed', country: 'NL', status: 'shipped' })), ['Ada Lovelace']);
  assert.deepEqual(names(filters({ batch: 'b1' })), ['Ada Lovelace', 'Alan Turing']);
  assert.deepEqual(names(filters({ batch: NO_BATCH })), ['Grace Hopper', 'Ada Byron']);
  assert.deepEqual(names(filters({ text: 'ada', batch: NO_BATCH })), ['Ada Byron']);
  assert.deepEqual(names(filters({ text: 'shop.csv turing' })), ['Alan Turing'], 'found by the batch file too');
  assert.deepEqual(names(filters({ range: 'custom', from: '2026-11-09', to: '2026-11-11' })), ['Grace Hopper']);
  assert.deepEqual(names(filters({ tab: 'placed', range: 'week' })), ['Ada Lovelace', 'Alan Turing']);
});

test('a day range reads from today back: a week is today and the six days before', () => {
  const today = new Date(2026, 10, 24, 9);
  assert.deepEqual(rangeDays({ range: 'today', from: '', to: '' }, today), { from: '2026-11-24', to: '' });
  assert.deepEqual(rangeDays({ range: 'week', from: '', to: '' }, today), { from: '2026-11-18', to: '' });
  assert.deepEqual(rangeDays({ range: 'any', from: '2026-01-01', to: '' }, today), { from: '', to: '' });
  assert.deepEqual(rangeDays({ range: 'custom', from: '2026-01-01', to: '2026-02-01' }, today), { from: '2026-01-01', to: '2026-02-01' });
});

test('sorting: references with numbers in number order, either way; empty cells last; newest first among equals', () => {
  const refs = ['SHOP-10', 'SHOP-9', 'shop-100'].map((orderReference) => orderRow(draft({ orderReference })));
  assert.deepEqual(sortRows(refs, { key: 'reference', dir: 'asc' }).map((r) => r.reference), ['SHOP-9', 'SHOP-10', 'shop-100']);
  assert.deepEqual(sortRows(refs, { key: 'reference', dir: 'desc' }).map((r) => r.reference), ['shop-100', 'SHOP-10', 'SHOP-9']);

  const placed = orderRow(draft({ status: 'received', placedAt: '2026-11-20T10:00:00Z' }));
  const later = orderRow(draft({ status: 'received', placedAt: '2026-11-22T10:00:00Z' }));
  const notPlaced = orderRow(draft({ state: 'draft' }));
  for (const dir of ['asc', 'desc'] as const) assert.equal(sortRows([notPlaced, placed, later], { key: 'placedAt', dir }).at(-1), notPlaced, `unplaced last, ${dir}`);
  assert.deepEqual(sortRows([placed, notPlaced, later], { key: 'placedAt', dir: 'desc' }), [later, placed, notPlaced]);

  const zoe = orderRow(draft({ name: 'Zoë A' }));
  const zack = orderRow(draft({ name: 'Zack B' }));
  assert.deepEqual(sortRows([zoe, zack], { key: 'recipient', dir: 'asc' }), [zack, zoe], 'accents aside');
  const stages = ['delivered', 'received', 'shipped'].map((status) => orderRow(draft({ status })));
  assert.deepEqual(sortRows([...stages, notPlaced], { key: 'status', dir: 'asc' }).map((r) => r.standing.label), ['Draft', 'Received', 'Shipped', 'Delivered']);
});
