// The orders of the list as a spreadsheet: what a print shop hands its bookkeeping or checks against
// its shop front (the reference ties each line to the row it came from).
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import { countryName } from '../../common/orders/countries.ts';
import { csvText } from '../../common/csv-text.ts';
import { stateLabel } from './order-states.ts';

const COLUMNS = [
  'Order reference', 'State', 'Service order', 'Service status', 'Placed', 'First name', 'Last name', 'Email', 'Phone',
  'Street and number', 'Postal code', 'City', 'State or province', 'Country', 'Models', 'Prints', 'Carrier', 'Method',
  'Shipping price', 'Currency', 'Problem',
];

export function ordersCsv(drafts: readonly Draft[]): string {
  const rows = drafts.map((d) => {
    const r = d.recipient;
    const price = d.order?.shippingPrice ?? d.shippingMethod?.price ?? null;
    return [
      d.orderReference, stateLabel(d.state, d.order?.status), d.order?.orderId ?? '', d.order?.status ?? '', d.order?.createdAt ?? '',
      r.firstName, r.lastName, r.email, r.phoneNumber, r.streetAddress, r.postal, r.city, r.countryState,
      r.country ? countryName(r.country) : '',
      // "id × quantity", one per model: a cell a spreadsheet keeps whole and a person can read.
      d.models.map((m) => `${m.name ? `${m.name} ` : ''}${m.modelId} × ${m.quantity}`).join('; '),
      String(d.models.reduce((sum, m) => sum + m.quantity, 0)),
      d.shippingMethod?.carrier ?? '', d.shippingMethod?.method ?? '',
      price === null ? '' : (price / 100).toFixed(2), d.order?.currency ?? (price === null ? '' : 'EUR'),
      d.problem?.message ?? '',
    ];
  });
  return csvText([COLUMNS, ...rows]);
}
