// `printdesk batch` on the shops' own exports, as downloaded (tests/fixtures/platforms), against a real
// sandbox: recognised by header, SKUs mapped through a --sku-map, values for every row with --set, only open
// orders taken and the rest listed with the flags that would send them, and a broken file refused before
// signing in even when the service is down.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runBatchCommand } from '../../electron/cli/batch.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';
import { startBatchSandbox, stopBatchSandbox } from './batch-sandbox.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'platforms');
const fixture = (name: string) => join(fixtures, name);
const DOWN = 'http://127.0.0.1:9/v2';

let sandbox: TestSandbox;
let projectId: string;
let dir: string;
let skuMap: string;

before(async () => {
  ({ sandbox, projectId, dir } = await startBatchSandbox('batch-platforms-cli-', ['Cube-binary.stl', 'Star-binary.stl']));
  // As the app's SKU export writes it: STAR-01 picked once, what is no print marked so. Cube-binary is
  // matched by its model's file name and needs no line.
  skuMap = join(dir, 'skus.csv');
  writeFileSync(skuMap, 'SKU,Model id,Model name,Not a print\nSTAR-01,,Star-binary.stl,\nGift Card,,,yes\nPrintable STL file (digital download),,,yes\n');
});
after(() => stopBatchSandbox({ sandbox, projectId, dir }));

async function cli(args: string[], userData = 'user-data') {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PRINTDESK_USER_DATA: join(dir, userData), PRINTDESK_EMAIL: sandbox.demoAccount.email, PRINTDESK_PASSWORD: sandbox.demoAccount.password },
  };
  const code = await runBatchCommand(args, io);
  return { code, stdout, stderr };
}

const ordersOnService = async () => new Map((await sandbox.operator.listOrders({ projectId })).map((o) => [o.orderReference, o]));

test('a Shopify export: the open orders placed once with their shipping address, the others listed with the flags that send them', async () => {
  const file = fixture('shopify-orders_export_1.csv');
  const dry = await cli([file, '--project', projectId, '--service', sandbox.baseUrl, '--sku-map', skuMap, '--dry-run']);
  assert.equal(dry.code, 1, 'a dry run with orders left out does not exit 0');
  assert.match(dry.stdout, /shopify-orders_export_1\.csv: Shopify orders export, 13 line items in 10 orders/);
  assert.match(dry.stdout, /1 order refunded on Shopify: left out \(--include refunded takes it\)/);
  const all = await cli([file, '--project', projectId, '--service', sandbox.baseUrl, '--dry-run', '--include', 'all']);
  assert.equal(all.code, 0, `${all.stdout}\n${all.stderr}`);
  assert.match(all.stdout, /10 orders are valid; 10 would be sent/);

  const run = await cli([file, '--project', projectId, '--service', sandbox.baseUrl]);
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /All 9 rows placed/);
  const placed = await ordersOnService();
  assert.deepEqual([...placed.keys()].filter((r) => r.startsWith('#')).sort(), ['#1001', '#1002', '#1003', '#1008', '#1009', '#1010']);
  const ada = placed.get('#1001');
  // The shipping address and name, never the billing one (Ada King, London); the gift card left out.
  assert.deepEqual([ada?.firstName, ada?.lastName, ada?.city, ada?.country, ada?.streetAddress], ['Ada', 'Lovelace', 'Amsterdam', 'NL', 'Keizersgracht 123, 2nd floor']);
  assert.deepEqual(ada?.models.map((m) => m.quantity).sort(), [1, 2]);
  // Zip and phone without the ' Excel keeps them as text with.
  assert.deepEqual([placed.get('#1002')?.postal, placed.get('#1002')?.phoneNumber, placed.get('#1002')?.countryState], ['02110', '+1 617-555-0134', 'MA']);
  // Spain and China without a province: the service does not ask for one, so they go.
  assert.equal(placed.get('#1003')?.countryState, null);
  assert.equal(placed.get('#1008')?.country, 'CN');
  // A partly fulfilled order: only what is left to make.
  assert.equal(placed.get('#1009')?.models.length, 1);
  assert.deepEqual([placed.get('#1010')?.firstName, placed.get('#1010')?.lastName], ['Jan', 'van der Berg']);

  // Run again: nothing new, and what is still open with the command that would send it.
  const again = await cli([file, '--project', projectId, '--service', sandbox.baseUrl]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /Nothing new to place: all 9 rows were placed before\./);
  assert.match(again.stdout, /Still open:/);
  const command = /To send them: (.*)/.exec(again.stdout)?.[1] ?? '';
  assert.match(command, /^printdesk batch \S+shopify-orders_export_1\.csv --project \S+ --service \S+ --include (fulfilled|refunded|unpaid|cancelled)(,(fulfilled|refunded|unpaid|cancelled)){3}$/);
  const refunded = await cli([file, '--project', projectId, '--service', sandbox.baseUrl, '--include', 'refunded']);
  assert.equal(refunded.code, 0, refunded.stderr);
  const after = await ordersOnService();
  assert.ok(after.has('#1005'), 'the refunded order, included, is placed');
  assert.equal([...after.keys()].filter((r) => r.startsWith('#')).length, 7, 'and nothing else, nothing twice');
});

test("Etsy's order items: the buyer's e-mail and phone the export lacks come from --set, countries written out become codes", async () => {
  const result = await cli([fixture('EtsySoldOrderItems2026-9.csv'), '--project', projectId, '--service', sandbox.baseUrl, '--sku-map', skuMap, '--set', 'email=orders@printfarm.example', '--set', 'phone=+31 40 123 4567']);
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  assert.match(result.stdout, /Etsy sold order items download, 7 line items in 5 orders/);
  const placed = await ordersOnService();
  const emma = placed.get('3012345678');
  assert.deepEqual([emma?.firstName, emma?.lastName, emma?.country, emma?.email, emma?.phoneNumber, emma?.streetAddress], ['Emma', 'Müller', 'DE', 'orders@printfarm.example', '+31 40 123 4567', 'Torstraße 5, Hinterhaus']);
  assert.equal(emma?.models.length, 2);
  assert.equal(placed.get('3012345682')?.models.length, 1, 'the digital download is no print');
  assert.equal(placed.has('3012345680'), false, 'shipped already: not taken');
  // The values are kept for files of this layout: the next Etsy file needs no --set.
  const dry = await cli([fixture('EtsySoldOrderItems2026-9.csv'), '--project', projectId, '--service', sandbox.baseUrl, '--dry-run', '--include', 'fulfilled']);
  assert.match(dry.stdout, /1 would be sent/, dry.stderr);
});

test("Etsy's orders: an ambiguous country stops the file before signing in, even with the service down; the rest go with --skip-invalid", async () => {
  const file = fixture('EtsySoldOrders2026-9.csv');
  const down = await cli([file, '--project', projectId, '--service', DOWN, '--set', 'email=orders@printfarm.example']);
  assert.equal(down.code, 2, down.stderr);
  assert.match(down.stderr, /row 4, Ship Country: "Georgia" could be the country Georgia \(GE\) or the US state/);
  const result = await cli([file, '--project', projectId, '--service', sandbox.baseUrl, '--skip-invalid', '--set', 'email=orders@printfarm.example']);
  assert.equal(result.code, 1, `${result.stdout}\n${result.stderr}`);
  assert.match(result.stdout, /Etsy sold orders download, 5 orders/);
  const placed = await ordersOnService();
  // One SKU of 2 items; two SKUs of 1 item each; first and last name as Etsy wrote them.
  assert.deepEqual(['3019876541', '3019876542', '3019876545'].map((r) => placed.get(r)?.models.reduce((n, m) => n + m.quantity, 0)), [2, 2, 3]);
  assert.equal(placed.get('3019876542')?.models.length, 2);
  assert.deepEqual([placed.get('3019876541')?.firstName, placed.get('3019876541')?.lastName, placed.get('3019876541')?.country], ['Lucía', 'Fernández', 'ES']);
  assert.equal(placed.has('3019876543'), false);
  // The value is kept for Etsy order files: the same file again needs no --set, and places nothing twice.
  const again = await cli([file, '--project', projectId, '--service', sandbox.baseUrl, '--skip-invalid']);
  assert.equal(again.code, 1, again.stderr);
  assert.equal((await ordersOnService()).size, placed.size);
});

test('an Amazon unshipped orders report: tab-separated, a " in a product name, lines shipped already left out', async () => {
  const result = await cli([fixture('amazon-unshipped-orders.txt'), '--project', projectId, '--service', sandbox.baseUrl, '--layout', 'amazon', '--sku-map', skuMap]);
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  assert.match(result.stdout, /Amazon unshipped orders report, 7 line items in 5 orders/);
  const placed = await ordersOnService();
  assert.deepEqual(placed.get('114-3941689-8772232')?.models.map((m) => m.quantity).sort(), [1, 2]);
  assert.equal(placed.get('026-9988776-5544332')?.streetAddress, 'Flat 4, Riverside House, 12 Quay Street');
  assert.equal(placed.get('404-7777777-8888888')?.models.length, 1);
  assert.equal(placed.has('114-5555555-1234567'), false, 'not paid: not taken');
  // Named wrongly, a file says which columns it lacks.
  const wrong = await cli([fixture('amazon-unshipped-orders.txt'), '--project', projectId, '--service', DOWN, '--layout', 'shopify']);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /not a Shopify orders export as PrintDesk knows it: it has no "Name"/);
});

test("an eBay orders report: the lines around its header and its record count read past; no buyer e-mail, so --set gives one", async () => {
  const file = fixture('eBay-OrdersReport-Sep-10-2026-131500.csv');
  const without = await cli([file, '--project', projectId, '--service', DOWN]);
  assert.equal(without.code, 2, without.stderr);
  assert.match(without.stdout, /eBay orders report, 7 line items in 5 orders/);
  assert.match(without.stderr, /--set \(for instance --set email=…\)/);
  const result = await cli([file, '--project', projectId, '--service', sandbox.baseUrl, '--sku-map', skuMap, '--set', 'email=orders@printfarm.example']);
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  const placed = await ordersOnService();
  const olivia = placed.get('12-22222-22222');
  assert.deepEqual([olivia?.firstName, olivia?.lastName, olivia?.country, olivia?.countryState, olivia?.models.length], ['Olivia', 'Chen', 'US', 'CA', 2]);
  assert.equal(placed.get('12-55555-55555')?.country, 'ES');
  assert.equal(placed.has('12-33333-33333') || placed.has('12-44444-44444'), false, 'unpaid and shipped orders are not taken');
  assert.match(result.stdout, /1 order not paid on eBay: left out/);
});

test('a broken export is exit 2 before signing in, with the service down', async () => {
  const text = readFileSync(fixture('eBay-OrdersReport-Sep-10-2026-131500.csv'), 'utf8');
  const broken = join(dir, 'broken-ebay.csv');
  writeFileSync(broken, text.replace('"Lucas Martin"', '"Lucas Martin'));
  const result = await cli([broken, '--project', projectId, '--service', DOWN]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /a quoted field .* is never closed|text after its closing quote/);
});
