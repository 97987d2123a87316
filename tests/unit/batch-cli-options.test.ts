// `printdesk batch` options for shops' exports, and the lines that say what is still open.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeFile, describeOpenRows } from '../../electron/services/batch/cli-output.ts';
import { batchOptions } from '../../electron/cli/batch-options.ts';
import { Exit } from '../../electron/cli/exit.ts';

test('--layout, --set and --include are read and checked; what they cannot mean is exit 2', () => {
  const opts = batchOptions(['orders.csv', '--project', 'P', '--layout', 'Shopify', '--set', 'email=orders@shop.example', '--set', 'phone=+31 40 123 4567', '--include', 'refunded,unpaid', '--include', 'refunded', '--sku-map', 'skus.csv']);
  assert.equal(opts.layout, 'shopify');
  assert.deepEqual(opts.constants, { email: 'orders@shop.example', phoneNumber: '+31 40 123 4567' });
  assert.deepEqual(opts.include, ['refunded', 'unpaid']);
  assert.equal(opts.skuMap, 'skus.csv');
  assert.deepEqual(batchOptions(['f.csv', '--project', 'P', '--include', 'all']).include, ['unpaid', 'fulfilled', 'cancelled', 'refunded']);
  for (const [args, message] of [
    [['--layout', 'woocommerce'], /--layout woocommerce: use one of csv, shopify/],
    [['--set', 'name=Ada'], /--set name=Ada: give field=value/],
    [['--set', 'email='], /give field=value/],
    [['--include', 'shipped'], /--include shipped: use unpaid, fulfilled, cancelled, refunded or all/],
  ] as const) {
    assert.throws(() => batchOptions(['f.csv', '--project', 'P', ...args]), (error: unknown) => error instanceof Exit && error.code === 2 && message.test(error.message));
  }
});

test('a file is named by what PrintDesk took it for', () => {
  assert.equal(describeFile('orders_export.csv', 'Shopify orders export', 'line item', 13, 10), 'orders_export.csv: Shopify orders export, 13 line items in 10 orders');
  assert.equal(describeFile('EtsySoldOrders.csv', 'Etsy sold orders download', 'order', 1, 1), 'EtsySoldOrders.csv: Etsy sold orders download, 1 order');
  assert.equal(describeFile('mine.csv', null, 'row', 2, 1), 'mine.csv: 2 rows in 1 order');
});

test('what is still open is listed with the flags that would send it, added to the command as given', () => {
  const lines = describeOpenRows(
    { notTaken: [{ reason: 'refunded', orders: 2 }, { reason: 'unpaid', orders: 1 }], unmatchedSkus: [{ sku: 'STAR-01', rows: 4 }], otherProblemRows: 1, platformName: 'Shopify' },
    ['printdesk', 'batch', 'orders.csv', '--project', 'P'],
  );
  assert.deepEqual(lines, [
    'Still open:',
    '  2 orders refunded on Shopify: left out (--include refunded takes them)',
    '  1 order not paid on Shopify: left out (--include unpaid takes it)',
    '  1 SKU without a model: "STAR-01" (4 rows). Give each one in a --sku-map file (columns SKU, Model name; "yes" under Not a print for what is no print), or pick them once in the app.',
    '  1 row with other problems (listed above): fix them in the file, or --skip-invalid sends the rest.',
    'To send them: printdesk batch orders.csv --project P --include refunded,unpaid --sku-map skus.csv',
  ]);
  assert.deepEqual(describeOpenRows({ notTaken: [], unmatchedSkus: [], otherProblemRows: 0, platformName: null }, ['printdesk']), []);
  // Run with --skip-invalid, the rows it left out are not offered it again.
  assert.deepEqual(describeOpenRows({ notTaken: [], unmatchedSkus: [], otherProblemRows: 2, platformName: null }, ['printdesk', 'batch', 'orders.csv', '--skip-invalid']), [
    'Still open:',
    '  2 rows with other problems (listed above): left out by --skip-invalid: fix them in the file to send them.',
  ]);
});
