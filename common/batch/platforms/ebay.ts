// eBay Seller Hub: Orders › Download report (the "Orders report" CSV). A row of commas and the header
// first, the record count and seller id last; an order of several items has a summary row (addresses,
// totals, no item) and then a row per item. Cancelled orders are not listed.
import type { Platform } from './types.ts';

const TRAILER = /^\s*(\d+\s*)?record\(s\) downloaded|^\s*seller id\s*:/i;

export const ebay: Platform = {
  id: 'ebay',
  name: 'eBay',
  label: 'eBay orders report',
  whereToExport: 'eBay Seller Hub › Orders › Download report, "All orders" as CSV',
  rowNoun: 'line item',
  signature: ['Sales Record Number', 'Order Number', 'Ship To Name', 'Ship To Address 1', 'Ship To Zip', 'Ship To Country', 'Custom Label', 'Quantity'],
  columns: {
    orderReference: ['Order Number', 'Sales Record Number'],
    email: ['Buyer Email'],
    phoneNumber: ['Ship To Phone'],
    postal: ['Ship To Zip'],
    city: ['Ship To City'],
    country: ['Ship To Country'],
    countryState: ['Ship To State'],
    sku: ['Custom Label'],
    productName: ['Item Title'],
    quantity: ['Quantity'],
  },
  fullName: 'Ship To Name',
  street: ['Ship To Address 1', 'Ship To Address 2'],
  // eBay keeps buyers' addresses to itself: the column is there and stays empty.
  missing: ['email'],
  isTrailer: (cells) => TRAILER.test(cells.filter(Boolean).join(' ')),
  notOpen(order) {
    if (order.all('Paid On Date').every((paid) => !paid)) return 'unpaid';
    if (order.first('Shipped On Date')) return 'fulfilled';
    return null;
  },
  lineKind: (cell) => (cell('Item Number') || cell('Custom Label') || cell('Item Title') ? 'item' : 'summary'),
};
