// Shopify: Orders → Export ("CSV for Excel, Numbers, or other spreadsheet programs"). One row per line
// item; the order's own cells (status, addresses, totals) only on its first line, Name and Email on every
// line. Shipping Country and Province are codes; Shipping Zip and Phone may carry a leading ' from Excel.
import type { Platform } from './types.ts';

const UNPAID = new Set(['pending', 'authorized', 'partially_paid', 'expired', 'unpaid']);
const REFUNDED = new Set(['refunded', 'partially_refunded', 'voided']);
const SENT_OUT = new Set(['fulfilled', 'restocked']);

export const shopify: Platform = {
  id: 'shopify',
  name: 'Shopify',
  label: 'Shopify orders export',
  whereToExport: 'Shopify admin › Orders › Export, as CSV for Excel, Numbers, or other spreadsheet programs',
  rowNoun: 'line item',
  signature: ['Name', 'Financial Status', 'Fulfillment Status', 'Lineitem quantity', 'Lineitem sku', 'Shipping Name', 'Shipping Zip', 'Shipping Country'],
  columns: {
    orderReference: ['Name'],
    email: ['Email'],
    streetAddress: ['Shipping Street', 'Shipping Address1'],
    postal: ['Shipping Zip'],
    city: ['Shipping City'],
    country: ['Shipping Country'],
    countryState: ['Shipping Province'],
    phoneNumber: ['Shipping Phone'],
    sku: ['Lineitem sku'],
    productName: ['Lineitem name'],
    quantity: ['Lineitem quantity'],
  },
  fullName: 'Shipping Name',
  notOpen(order) {
    if (order.first('Cancelled at')) return 'cancelled';
    const financial = order.first('Financial Status').toLowerCase();
    if (REFUNDED.has(financial)) return 'refunded';
    if (UNPAID.has(financial)) return 'unpaid';
    const fulfillment = order.first('Fulfillment Status').toLowerCase();
    if (fulfillment === 'fulfilled') return 'fulfilled';
    if (fulfillment === 'restocked') return 'cancelled';
    return null;
  },
  // A partly fulfilled order's lines that went out already are not made again.
  lineKind: (cell) => (SENT_OUT.has(cell('Lineitem fulfillment status').toLowerCase()) ? 'fulfilled' : 'item'),
};
