// A batch's makings for tests of the store: rows as a shop's file has them (two rows an order), a batch's fields,
// and an order validated from its rows, as the batch domain hands them to the outbox.
import { emptyOrderContent } from '../common/orders/empty.ts';
import type { Recipient, ShippingMethod } from '../electron/contract/schemas/orders.ts';
import type { StoredRecord } from '../electron/services/batch/tables.ts';
import type { ValidatedOrder } from '../electron/services/batch/validate.ts';

export const CUBE = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const METHOD: ShippingMethod = { shippingMethodId: 101, carrier: 'POSTNL', method: 'standard', servicePoint: false, price: 395, minDeliveryTime: null, maxDeliveryTime: null, estimatedDeliveryTime: null };
export const HEADER = ['Reference', 'Email'];

export const ADA_LOVELACE: Recipient = { firstName: 'Ada', lastName: 'Lovelace', streetAddress: 'Keizersgracht 1', postal: '1015 CJ', city: 'Amsterdam', country: 'NL', countryState: '', phoneNumber: '', email: 'ada@example.com' };

/** `count` rows from row 2, two rows an order: … */
export const rowsOf = (count: number, prefix = 'R'): StoredRecord[] =>
  Array.from({ length: count }, (_, i) => ({ row: i + 2, reference: `${prefix}-${Math.floor(i / 2)}`, cells: [`${prefix}-${Math.floor(i / 2)}`, `c${i}@example.com`] }));

export const batchFieldsOf = (fileName: string, fileHash = fileName, account = 'acct') => ({
  account, projectId: 'p', fileName, fileHash, header: HEADER, mapping: { orderReference: 0, email: 1 }, shipping: { kind: 'rule' as const, rule: 'cheapest' as const }, layout: null, constants: {},
});

/** The order of `reference`, made from these rows of the file. */
export const orderOf = (reference: string, rows: readonly number[], recipient: Recipient = ADA_LOVELACE): ValidatedOrder => ({
  reference,
  rows: [...rows],
  recipient,
  models: [{ modelId: CUBE, quantity: 1 }],
  orderContent: emptyOrderContent(),
  shipping: null,
  shippingAt: { row: rows[0], column: null },
  skipped: null,
  errors: [],
  method: METHOD,
  currency: 'EUR',
});
