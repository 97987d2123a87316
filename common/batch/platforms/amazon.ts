// Amazon Seller Central: Orders › Order Reports › Unshipped Orders. Tab-separated text without quoting, one
// row per order item; the buyer's e-mail is Amazon's relay address, which reaches the buyer.
import type { Platform } from './types.ts';

export const amazon: Platform = {
  id: 'amazon',
  name: 'Amazon',
  label: 'Amazon unshipped orders report',
  whereToExport: 'Amazon Seller Central › Orders › Order Reports › Unshipped Orders › Request report, then Download',
  rowNoun: 'line item',
  signature: ['order-id', 'order-item-id', 'purchase-date', 'sku', 'recipient-name', 'ship-address-1', 'ship-postal-code', 'ship-country'],
  columns: {
    orderReference: ['order-id'],
    email: ['buyer-email'],
    phoneNumber: ['ship-phone-number', 'buyer-phone-number'],
    postal: ['ship-postal-code'],
    city: ['ship-city'],
    country: ['ship-country'],
    countryState: ['ship-state'],
    sku: ['sku'],
    productName: ['product-name'],
    quantity: ['quantity-to-ship', 'quantity-purchased'],
  },
  fullName: 'recipient-name',
  street: ['ship-address-1', 'ship-address-2', 'ship-address-3'],
  unquoted: true,
  notOpen(order) {
    if (order.all('payments-date').every((paid) => !paid) && order.first('purchase-date')) return 'unpaid';
    const toShip = order.all('quantity-to-ship');
    if (toShip.length > 0 && toShip.every((q) => q.trim() === '0')) return 'fulfilled';
    return null;
  },
  lineKind: (cell) => (cell('quantity-to-ship').trim() === '0' ? 'fulfilled' : 'item'),
};
