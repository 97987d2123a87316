// Writes a Shopify orders export (the whole documented header, Orders › Export) of the given number of
// orders for the batch bench: about half the orders have two line items, the order's own cells only on its
// first, zip codes and phones kept as text with a leading ', some orders refunded, unpaid or fulfilled,
// shipping and billing addresses side by side.
//   node scripts/generate-shopify-export.ts <out.csv> [orders=10000]
import { writeFile } from 'node:fs/promises';
import { exportLine, EXPORT_HEADERS } from '../common/batch/platforms/samples.ts';

// Every customer has a phone number of their own (a cache of checked numbers would learn nothing here).
const DESTINATIONS = [
  { city: 'Amsterdam', zip: '1015 CJ', country: 'NL', province: '', phone: (n: string) => `+31 20 ${n.slice(0, 3)} ${n.slice(3, 7)}` },
  { city: 'Berlin', zip: '10117', country: 'DE', province: '', phone: (n: string) => `+49 30 ${n.slice(0, 7)}` },
  { city: 'Boston', zip: "'02110", country: 'US', province: 'MA', phone: (n: string) => `'+1 617-${n.slice(0, 3)}-${n.slice(3, 7)}` },
  { city: 'Paris', zip: '75001', country: 'FR', province: '', phone: (n: string) => `+33 1 ${n.slice(0, 2)} ${n.slice(2, 4)} ${n.slice(4, 6)} ${n.slice(6, 8)}` },
  { city: 'Madrid', zip: '28014', country: 'ES', province: '', phone: (n: string) => `+34 91 ${n.slice(0, 3)} ${n.slice(3, 7)}` },
  { city: 'London', zip: 'SW1A 1AA', country: 'GB', province: '', phone: (n: string) => `+44 20 7${n.slice(0, 3)} ${n.slice(3, 7)}` },
];
const FIRST = ['Ada', 'Grace', 'Alan', 'Jan', 'Mia', 'José', 'Wei', 'Emma'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'van der Berg', 'Jensen', 'García López', 'Zhang', 'Müller'];

/** The SKUs the export names: one a model's file name, one that the SKU table maps. */
export const SHOPIFY_BENCH_SKUS = ['Cube-binary', 'STAR-01'] as const;

export function shopifyExport(orders: number): { text: string; rows: number } {
  const lines = [EXPORT_HEADERS.shopify.join(',')];
  for (let i = 0; i < orders; i++) {
    const to = DESTINATIONS[i % DESTINATIONS.length];
    const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]}`;
    const status = i % 20 === 7 ? 'refunded' : i % 20 === 13 ? 'pending' : 'paid';
    const fulfilled = i % 25 === 3 ? 'fulfilled' : 'unfulfilled';
    const order = `#${1001 + i}`;
    const email = `customer${i}@example.com`;
    const digits = String(2_345_678 + i * 7919).padStart(8, '0');
    lines.push(exportLine('shopify', {
      Name: order, Email: email, 'Financial Status': status, 'Paid at': status === 'paid' ? '2026-09-01 10:15:03 +0200' : '', 'Fulfillment Status': fulfilled,
      Currency: 'EUR', Subtotal: '39.00', Shipping: '4.95', Taxes: '8.19', Total: '43.95', 'Created at': '2026-09-01 10:15:03 +0200',
      'Lineitem quantity': String(1 + (i % 3)), 'Lineitem name': 'Cube desk organiser', 'Lineitem price': '19.50', 'Lineitem sku': SHOPIFY_BENCH_SKUS[0],
      'Lineitem requires shipping': 'true', 'Lineitem taxable': 'true', 'Lineitem fulfillment status': fulfilled === 'fulfilled' ? 'fulfilled' : 'pending',
      'Billing Name': name, 'Billing Street': `Billing Lane ${i}`, 'Billing Address1': `Billing Lane ${i}`, 'Billing City': 'Utrecht', 'Billing Zip': '3511 AB', 'Billing Country': 'NL',
      'Shipping Name': name, 'Shipping Street': `Main Street ${i + 1}, Apt ${i % 40}`, 'Shipping Address1': `Main Street ${i + 1}`, 'Shipping Address2': `Apt ${i % 40}`,
      'Shipping City': to.city, 'Shipping Zip': to.zip, 'Shipping Province': to.province, 'Shipping Country': to.country, 'Shipping Phone': to.phone(digits),
      'Payment Method': 'Shopify Payments', Id: String(5550000000 + i), 'Risk Level': 'Low', Source: 'web', 'Tax 1 Name': 'VAT 21%', 'Tax 1 Value': '8.19',
    }));
    // Every other order has a second line item: Name and Email repeat, the order's own cells do not.
    if (i % 2 === 0) {
      lines.push(exportLine('shopify', {
        Name: order, Email: email, 'Lineitem quantity': '1', 'Lineitem name': 'Star ornament - Black', 'Lineitem price': '12.00', 'Lineitem sku': SHOPIFY_BENCH_SKUS[1],
        'Lineitem requires shipping': 'true', 'Lineitem taxable': 'true', 'Lineitem fulfillment status': fulfilled === 'fulfilled' ? 'fulfilled' : 'pending',
      }));
    }
  }
  return { text: `${lines.join('\n')}\n`, rows: lines.length - 1 };
}

if (import.meta.main) {
  const [out, count = '10000'] = process.argv.slice(2);
  if (!out) {
    console.error('Usage: node scripts/generate-shopify-export.ts <out.csv> [orders=10000]');
    process.exit(2);
  }
  const { text, rows } = shopifyExport(Number(count));
  await writeFile(out, text);
  console.log(`${out}: ${Number(count).toLocaleString('en')} orders, ${rows.toLocaleString('en')} line items, ${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB`);
}
