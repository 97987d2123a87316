// Etsy: Shop Manager › Settings › Options › Download Data, "Orders" (one row per order) or "Order Items"
// (one row per item). Neither has the buyer's e-mail or phone; countries are written out in full.
import type { NotOpen, OrderCells, Platform } from './types.ts';

function etsyNotOpen(order: OrderCells): NotOpen | null {
  const status = order.first('Status').toLowerCase();
  if (status.includes('cancel')) return 'cancelled';
  if (status.includes('refund')) return 'refunded';
  if (order.first('Date Shipped') || status === 'completed' || status === 'shipped') return 'fulfilled';
  return null;
}

/** "Sold Order Items": one row per item of an order, with its quantity and SKU. */
export const etsyItems: Platform = {
  id: 'etsy-items',
  name: 'Etsy',
  label: 'Etsy sold order items download',
  whereToExport: 'Etsy Shop Manager › Settings › Options › Download Data › Orders, type "Order Items"',
  rowNoun: 'line item',
  signature: ['Sale Date', 'Item Name', 'Transaction ID', 'Ship Name', 'Ship Address1', 'Ship Zipcode', 'Ship Country', 'Order ID'],
  columns: {
    orderReference: ['Order ID'],
    postal: ['Ship Zipcode'],
    city: ['Ship City'],
    country: ['Ship Country'],
    countryState: ['Ship State'],
    sku: ['SKU'],
    productName: ['Item Name'],
    quantity: ['Quantity'],
  },
  fullName: 'Ship Name',
  street: ['Ship Address1', 'Ship Address2'],
  missing: ['email', 'phoneNumber'],
  notOpen(order) {
    if (order.all('Date Paid').every((paid) => !paid)) return 'unpaid';
    return etsyNotOpen(order);
  },
};

/** "Sold Orders": one row per order, its SKUs in one cell and only the order's total of items. */
export const etsyOrders: Platform = {
  id: 'etsy-orders',
  name: 'Etsy',
  label: 'Etsy sold orders download',
  whereToExport: 'Etsy Shop Manager › Settings › Options › Download Data › Orders, type "Orders"',
  rowNoun: 'order',
  signature: ['Sale Date', 'Order ID', 'Buyer User ID', 'Full Name', 'Number of Items', 'Street 1', 'Ship Zipcode', 'Ship Country'],
  columns: {
    orderReference: ['Order ID'],
    firstName: ['First Name'],
    lastName: ['Last Name'],
    postal: ['Ship Zipcode'],
    city: ['Ship City'],
    country: ['Ship Country'],
    countryState: ['Ship State'],
    sku: ['SKU'],
    quantity: ['Number of Items'],
  },
  fullName: 'Full Name',
  street: ['Street 1', 'Street 2'],
  missing: ['email', 'phoneNumber'],
  skuList: true,
  notOpen: etsyNotOpen,
};
