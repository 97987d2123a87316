// Sample exports of each platform for the Batch view's "Download sample": the platform's whole header as it
// documents it, and two orders whose SKUs are the project's own model file names, so they import as they are.
import type { PlatformId } from './types.ts';

const SHOPIFY = 'Name,Email,Financial Status,Paid at,Fulfillment Status,Fulfilled at,Accepts Marketing,Currency,Subtotal,Shipping,Taxes,Total,Discount Code,Discount Amount,Shipping Method,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem compare at price,Lineitem sku,Lineitem requires shipping,Lineitem taxable,Lineitem fulfillment status,Billing Name,Billing Street,Billing Address1,Billing Address2,Billing Company,Billing City,Billing Zip,Billing Province,Billing Country,Billing Phone,Shipping Name,Shipping Street,Shipping Address1,Shipping Address2,Shipping Company,Shipping City,Shipping Zip,Shipping Province,Shipping Country,Shipping Phone,Notes,Note Attributes,Cancelled at,Payment Method,Payment Reference,Refunded Amount,Vendor,Outstanding Balance,Employee,Location,Device ID,Id,Tags,Risk Level,Source,Lineitem discount,Tax 1 Name,Tax 1 Value,Tax 2 Name,Tax 2 Value,Tax 3 Name,Tax 3 Value,Tax 4 Name,Tax 4 Value,Tax 5 Name,Tax 5 Value,Phone,Receipt Number,Duties,Billing Province Name,Shipping Province Name,Payment ID,Payment Terms Name,Next Payment Due At,Payment References';
const ETSY_ITEMS = 'Sale Date,Item Name,Buyer,Quantity,Price,Coupon Code,Coupon Details,Discount Amount,Shipping Discount,Order Shipping,Order Sales Tax,Item Total,Currency,Transaction ID,Listing ID,Date Paid,Date Shipped,Ship Name,Ship Address1,Ship Address2,Ship City,Ship State,Ship Zipcode,Ship Country,Order ID,Variations,Order Type,Listings Type,Payment Type,InPerson Discount,InPerson Location,VAT Paid by Buyer,SKU';
const ETSY_ORDERS = 'Sale Date,Order ID,Buyer User ID,Full Name,First Name,Last Name,Number of Items,Payment Method,Date Shipped,Street 1,Street 2,Ship City,Ship State,Ship Zipcode,Ship Country,Currency,Order Value,Coupon Code,Coupon Details,Discount Amount,Shipping Discount,Shipping,Sales Tax,Order Total,Status,Card Processing Fees,Order Net,Adjusted Order Total,Adjusted Card Processing Fees,Adjusted Net Order Amount,Buyer,Order Type,Payment Type,InPerson Discount,InPerson Location,SKU';
const AMAZON = 'order-id,order-item-id,purchase-date,payments-date,reporting-date,promise-date,days-past-promise,buyer-email,buyer-name,buyer-phone-number,sku,product-name,quantity-purchased,quantity-shipped,quantity-to-ship,ship-service-level,recipient-name,ship-address-1,ship-address-2,ship-address-3,ship-city,ship-state,ship-postal-code,ship-country,is-business-order,purchase-order-number,price-designation,is-iba,verge-of-cancellation,verge-of-lateShipment';
const EBAY = 'Sales Record Number,Order Number,Buyer Username,Buyer Name,Buyer Email,Buyer Note,Buyer Address 1,Buyer Address 2,Buyer City,Buyer State,Buyer Zip,Buyer Country,Buyer Tax Identifier Name,Buyer Tax Identifier Value,Ship To Name,Ship To Phone,Ship To Address 1,Ship To Address 2,Ship To City,Ship To State,Ship To Zip,Ship To Country,Item Number,Item Title,Custom Label,Sold Via Promoted Listings,Quantity,Sold For,Shipping And Handling,Item Location,Item Zip Code,Item Country,eBay Collect And Remit Tax Rate,eBay Collect And Remit Tax Type,eBay Reference Name,eBay Reference Value,Tax Status,Seller Collected Tax,eBay Collected Tax,Electronic Waste Recycling Fee,Mattress Recycling Fee,Battery Recycling Fee,White Goods Disposal Tax,Tire Recycling Fee,Additional Fee,eBay Collected Charges,Total Price,eBay Collected Tax Included in Total,Payment Method,Commitment Date,Sale Date,Paid On Date,Ship By Date,Minimum Estimated Delivery Date,Maximum Estimated Delivery Date,Shipped On Date,Feedback Left,Feedback Received,My Item Note,PayPal Transaction ID,Shipping Service,Tracking Number,Transaction ID,Variation Details,Global Shipping Program,Global Shipping Reference ID,Click And Collect,Click And Collect Reference Number,eBay Plus,Authenticity Verification Program,Authenticity Verification Status,Authenticity Verification Outcome Reason,eBay Vault Program,Vault Fulfillment Type,eBay Fulfillment Program,Tax City,Tax State,Tax Zip,Tax Country,eBay International Shipping';

/** Each platform's documented export header, whole, in its own order. */
export const EXPORT_HEADERS: Record<PlatformId, readonly string[]> = {
  shopify: SHOPIFY.split(','),
  'etsy-items': ETSY_ITEMS.split(','),
  'etsy-orders': ETSY_ORDERS.split(','),
  amazon: AMAZON.split(','),
  ebay: EBAY.split(','),
};

type Cells = Record<string, string>;

export interface SampleExport {
  fileName: string;
  text: string;
}

/** A line of the file from its cells by column name; the rest empty. */
export function exportLine(platform: PlatformId, cells: Cells, separator = ','): string {
  const quote = (value: string) => (/[",\r\n]/.test(value) && separator === ',' ? `"${value.replace(/"/g, '""')}"` : value);
  return EXPORT_HEADERS[platform].map((name) => quote(cells[name] ?? '')).join(separator);
}

/** The platform's sample export, its SKUs the file names (without extension) of the models given. */
export function sampleExport(platform: PlatformId, modelFiles: readonly string[] = []): SampleExport {
  const stem = (file: string | undefined, fallback: string) => (file ?? fallback).replace(/\.(stl|obj|3mf)$/i, '');
  const [a, b] = [stem(modelFiles[0], 'bracket'), stem(modelFiles[1] ?? modelFiles[0], 'housing')];
  const build = SAMPLES[platform];
  return build(a, b);
}

const header = (platform: PlatformId, separator = ',') => EXPORT_HEADERS[platform].join(separator);

const SAMPLES: Record<PlatformId, (a: string, b: string) => SampleExport> = {
  shopify: (a, b) => ({
    fileName: 'orders_export_1.csv',
    text: lines([
      header('shopify'),
      exportLine('shopify', { Name: '#1001', Email: 'ada@example.com', 'Financial Status': 'paid', 'Fulfillment Status': 'unfulfilled', Currency: 'EUR', 'Created at': '2026-09-01 10:15:03 +0200', 'Lineitem quantity': '2', 'Lineitem name': 'Bracket', 'Lineitem sku': a, 'Lineitem requires shipping': 'true', 'Lineitem fulfillment status': 'pending', 'Billing Name': 'Ada King', 'Billing City': 'London', 'Billing Country': 'GB', 'Shipping Name': 'Ada Lovelace', 'Shipping Street': 'Keizersgracht 123', 'Shipping Address1': 'Keizersgracht 123', 'Shipping City': 'Amsterdam', 'Shipping Zip': '1015 CJ', 'Shipping Country': 'NL', 'Shipping Phone': '+31 20 123 4567', Id: '5550000001' }),
      exportLine('shopify', { Name: '#1001', Email: 'ada@example.com', 'Lineitem quantity': '1', 'Lineitem name': 'Housing', 'Lineitem sku': b, 'Lineitem requires shipping': 'true', 'Lineitem fulfillment status': 'pending' }),
      exportLine('shopify', { Name: '#1002', Email: 'grace@example.com', 'Financial Status': 'paid', 'Fulfillment Status': 'unfulfilled', Currency: 'USD', 'Created at': '2026-09-01 11:02:44 -0400', 'Lineitem quantity': '1', 'Lineitem name': 'Bracket', 'Lineitem sku': a, 'Lineitem requires shipping': 'true', 'Lineitem fulfillment status': 'pending', 'Shipping Name': 'Grace Hopper', 'Shipping Street': '100 Summer Street', 'Shipping Address1': '100 Summer Street', 'Shipping City': 'Boston', 'Shipping Zip': "'02110", 'Shipping Province': 'MA', 'Shipping Country': 'US', 'Shipping Phone': "'+1 617-555-0134", Id: '5550000002' }),
    ]),
  }),
  'etsy-items': (a, b) => ({
    fileName: 'EtsySoldOrderItems.csv',
    text: lines([
      header('etsy-items'),
      exportLine('etsy-items', { 'Sale Date': '09/05/26', 'Item Name': 'Bracket', Quantity: '1', 'Transaction ID': '4101000001', 'Date Paid': '09/05/26', 'Ship Name': 'Emma Müller', 'Ship Address1': 'Torstraße 5', 'Ship City': 'Berlin', 'Ship Zipcode': '10119', 'Ship Country': 'Germany', 'Order ID': '3012345678', SKU: a }),
      exportLine('etsy-items', { 'Sale Date': '09/05/26', 'Item Name': 'Housing', Quantity: '2', 'Transaction ID': '4101000002', 'Date Paid': '09/05/26', 'Ship Name': 'Emma Müller', 'Ship Address1': 'Torstraße 5', 'Ship City': 'Berlin', 'Ship Zipcode': '10119', 'Ship Country': 'Germany', 'Order ID': '3012345678', SKU: b }),
    ]),
  }),
  'etsy-orders': (a) => ({
    fileName: 'EtsySoldOrders.csv',
    text: lines([
      header('etsy-orders'),
      exportLine('etsy-orders', { 'Sale Date': '09/07/26', 'Order ID': '3019876541', 'Full Name': 'Lucía Fernández', 'First Name': 'Lucía', 'Last Name': 'Fernández', 'Number of Items': '2', 'Street 1': 'Calle Mayor 7', 'Ship City': 'Madrid', 'Ship Zipcode': '28013', 'Ship Country': 'Spain', SKU: a }),
    ]),
  }),
  amazon: (a, b) => ({
    fileName: 'amazon-unshipped-orders.txt',
    text: lines([
      header('amazon', '\t'),
      exportLine('amazon', { 'order-id': '114-3941689-8772232', 'order-item-id': '62011234567801', 'purchase-date': '2026-09-08T10:20:31+00:00', 'payments-date': '2026-09-08T10:21:07+00:00', 'buyer-email': 'x9k2mfq7t1v8p3d@marketplace.amazon.com', sku: a, 'product-name': 'Bracket', 'quantity-purchased': '1', 'quantity-shipped': '0', 'quantity-to-ship': '1', 'recipient-name': 'Robert Jones', 'ship-address-1': '410 Terry Ave N', 'ship-city': 'Seattle', 'ship-state': 'WA', 'ship-postal-code': '98109-5210', 'ship-country': 'US', 'buyer-phone-number': '+1 206-555-0175' }, '\t'),
      exportLine('amazon', { 'order-id': '114-3941689-8772232', 'order-item-id': '62011234567802', 'purchase-date': '2026-09-08T10:20:31+00:00', 'payments-date': '2026-09-08T10:21:07+00:00', 'buyer-email': 'x9k2mfq7t1v8p3d@marketplace.amazon.com', sku: b, 'product-name': 'Housing 3" wide', 'quantity-purchased': '2', 'quantity-shipped': '0', 'quantity-to-ship': '2', 'recipient-name': 'Robert Jones', 'ship-address-1': '410 Terry Ave N', 'ship-city': 'Seattle', 'ship-state': 'WA', 'ship-postal-code': '98109-5210', 'ship-country': 'US', 'buyer-phone-number': '+1 206-555-0175' }, '\t'),
    ], '\n'),
  }),
  ebay: (a) => ({
    fileName: 'eBay-OrdersReport.csv',
    text: lines([
      ','.repeat(EXPORT_HEADERS.ebay.length - 1),
      header('ebay'),
      exportLine('ebay', { 'Sales Record Number': '1001', 'Order Number': '12-11111-11111', 'Buyer Email': 'lucas@example.com', 'Ship To Name': 'Lucas Martin', 'Ship To Phone': '+33 1 42 68 53 00', 'Ship To Address 1': '12 Rue de la Paix', 'Ship To City': 'Paris', 'Ship To Zip': '75002', 'Ship To Country': 'France', 'Item Number': '335512340001', 'Item Title': 'Bracket', 'Custom Label': a, Quantity: '1', 'Sale Date': 'Sep-10-26', 'Paid On Date': 'Sep-10-26' }),
      '',
      '1,record(s) downloaded,from Sep-10-26 to Sep-10-26',
      'Seller ID : your_shop',
    ], '\n'),
  }),
};

function lines(list: readonly string[], end = '\r\n'): string {
  return `${list.join(end)}${end}`;
}
