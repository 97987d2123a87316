// Batch ordering: reading and validating a 10,000-row CSV, and a Shopify export of 10,000 orders, beside
// papaparse alone on the same bytes, and placing 10,000 orders against a sandbox (in its own process, as a real service
// would be) limited to 2,000 CreateOrder calls per 10 s window, beside the least time that
// limit allows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { autoMap } from '../common/batch/mapping.ts';
import { parseCsv } from '../common/batch/parse-csv.ts';
import { createHash } from 'node:crypto';
import { withReferences } from '../common/batch/references.ts';
import { readExport } from '../common/batch/read-export.ts';
import { rowsToOrders } from '../common/batch/rows-to-orders.ts';
import { createSkuLookup } from '../common/batch/sku-match.ts';
import { shopifyExport, SHOPIFY_BENCH_SKUS } from '../scripts/generate-shopify-export.ts';
import { createBatchHost } from '../tests/batch-host.ts';
import { databasePath, sandboxDataDir } from '../electron/services/paths.ts';
import { openDatabase } from '../electron/services/storage/database.ts';
import type { BenchResult } from './run.ts';
import { startChildSandbox } from './child-sandbox.ts';

const ROWS = 10_000;
const ORDERS = 10_000;
const LIMIT = 2_000;
const WINDOW_SECONDS = 10;
const DESTINATIONS = [
  { country: 'NL', state: '', postal: '1015 CJ', city: 'Amsterdam', phone: '+31 20 123 4567' },
  { country: 'DE', state: '', postal: '10117', city: 'Berlin', phone: '+49 30 1234567' },
  { country: 'BE', state: '', postal: '1000', city: 'Brussel', phone: '+32 2 123 45 67' },
  { country: 'FR', state: '', postal: '75001', city: 'Paris', phone: '+33 1 23 45 67 89' },
  { country: 'US', state: 'NY', postal: '10001', city: 'New York', phone: '+1 212 555 0100' },
];

/**
 * A shop export: every fifth order has two models (two rows), addresses vary, some cells quoted.
 * Stops at `limit` rows or `limit` orders, whichever `by` says.
 */
export function generate(limit: number, by: 'rows' | 'orders', model = 'Cube-binary.stl', destinations = DESTINATIONS): Uint8Array {
  const lines = ['orderReference,firstName,lastName,streetAddress,postal,city,country,countryState,phoneNumber,email,model,quantity,shippingMethod'];
  for (let i = 0; (by === 'rows' ? lines.length - 1 : i) < limit; i++) {
    const d = destinations[i % destinations.length];
    const reference = i % 5 === 0 ? `SHOP-${i}` : '';
    lines.push(`${reference},Customer${i},"Family, ${i}",Main Street ${i + 1},${d.postal},${d.city},${d.country},${d.state},${d.phone},c${i}@example.com,${model},${1 + (i % 3)},cheapest`);
    if (reference && (by === 'orders' || lines.length - 1 < limit)) lines.push(`${reference},,,,,,,,,,${model},1,`);
  }
  return new TextEncoder().encode(lines.join('\r\n'));
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

function rowsPerSecond(runs: number, fn: () => void): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    fn();
    samples.push(ROWS / ((performance.now() - started) / 1000));
  }
  return Math.round(median(samples));
}

function parseAndValidate(): BenchResult {
  const bytes = generate(ROWS, 'rows');
  const models = new Map([['cube-binary.stl', '0f8fad5b-d9cb-469f-a165-70867728950e']]);
  const ours = rowsPerSecond(7, () => {
    const parsed = parseCsv(bytes);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const { header, records } = parsed.value;
    const mapping = autoMap(header);
    const referenced = withReferences(records, mapping, 'bench', (text) => createHash('sha256').update(text).digest('hex'));
    const { errors } = rowsToOrders({ header, records: referenced, mapping, models });
    if (errors.length) throw new Error(`generated rows should be valid: ${errors[0].message}`);
  });
  const baseline = rowsPerSecond(7, () => Papa.parse<string[]>(new TextDecoder().decode(bytes), { delimiter: ',' }));
  return {
    name: `parse + validate a ${ROWS.toLocaleString('en')}-row CSV (rows/s)`,
    value: ours,
    unit: 'rows/s',
    baseline: { name: 'papaparse alone on the same bytes (decode + parse, no validation)', value: baseline },
    ratio: Number((ours / baseline).toFixed(3)),
  };
}

const SHOPIFY_ORDERS = 10_000;

/**
 * A Shopify orders export as downloaded (10,000 orders, about 15,000 line items, the whole 79-column header)
 * read, recognised, mapped (names split, SKUs through the SKU table and file names) and validated by the
 * service's rules and ours, beside papaparse alone on the same bytes.
 */
export function shopifyExportReadAndValidated(): BenchResult {
  const { text, rows } = shopifyExport(SHOPIFY_ORDERS);
  const bytes = new TextEncoder().encode(text);
  const cube = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const star = '6ec0bd7f-11c0-43da-975e-2a8ad9ebae0b';
  const models = { byName: new Map([['cube-binary.stl', cube], ['star-binary.stl', star]]), byStem: new Map([['cube-binary', cube], ['star-binary', star]]), names: new Map([[cube, 'Cube-binary'], [star, 'Star-binary']]) };
  const table = new Map([[SHOPIFY_BENCH_SKUS[1].toLowerCase(), { sku: SHOPIFY_BENCH_SKUS[1], modelId: star, skip: false }]]);
  const digest = (value: string) => createHash('sha256').update(value).digest('hex');
  let taken = 0;
  const once = () => {
    const read = readExport(bytes);
    if (!read.ok || !read.value.platform || !read.value.mapping) throw new Error(`the generated export should read as Shopify's: ${read.ok ? 'not recognised' : read.error.message}`);
    const { header, records, mapping, platform } = read.value;
    const { orders, errors } = rowsToOrders({ header, records: withReferences(records, mapping, 'bench', digest), mapping, models: models.byName, skus: createSkuLookup(table, models), platform });
    const blocking = errors.find((e) => e.kind === 'error');
    if (blocking) throw new Error(`generated rows should be valid: row ${blocking.row}: ${blocking.message}`);
    taken = orders.filter((o) => !o.skipped).length;
  };
  const seconds = (fn: () => void) => {
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      fn();
      samples.push((performance.now() - started) / 1000);
    }
    return median(samples);
  };
  once();
  const ours = seconds(once);
  const papaparse = seconds(() => Papa.parse<string[]>(new TextDecoder().decode(bytes), { delimiter: ',' }));
  return {
    name: `Shopify export of ${SHOPIFY_ORDERS.toLocaleString('en')} orders (${rows.toLocaleString('en')} line items, ${(bytes.byteLength / 1e6).toFixed(1)} MB) read, recognised, mapped and validated (rows/s)`,
    value: Math.round(rows / ours),
    unit: 'rows/s',
    baseline: { name: 'papaparse alone on the same bytes (decode + parse, no mapping, no validation)', value: Math.round(rows / papaparse) },
    ratio: Number((papaparse / ours).toFixed(3)),
    seconds: Number(ours.toFixed(3)),
    timesPapaparse: Number((ours / papaparse).toFixed(2)),
    ordersTaken: taken,
    aim: 'under 1 s in total, at most 3x papaparse alone',
  };
}

async function placeUnderRateLimit(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'printdesk-batch-bench-'));
  const sandbox = await startChildSandbox(sandboxDataDir(dir), { default: { limit: 1_000_000, windowSeconds: 60 }, 'Order/CreateOrder': { limit: LIMIT, windowSeconds: WINDOW_SECONDS } });
  const db = openDatabase(databasePath(dir));
  const host = await createBatchHost({ db, baseUrl: sandbox.baseUrl });
  try {
    await host.signIn(sandbox.demoAccount.email, sandbox.demoAccount.password);
    await host.start();
    const importStarted = performance.now();
    const batch = await host.batches.import({ bytes: generate(ORDERS, 'orders'), fileName: 'bench.csv', projectId: sandbox.projectId });
    const importMs = performance.now() - importStarted;
    if (batch.errors) throw new Error(`generated rows should be valid: ${(await host.batches.errors(batch.id))[0].message}`);
    const started = performance.now();
    await host.batches.send(batch.id);
    const done = await host.batches.settled(batch.id);
    const seconds = (performance.now() - started) / 1000;
    const placed = await sandbox.count();
    if (done.done !== batch.orders || placed.orders !== batch.orders || placed.references !== batch.orders) {
      throw new Error(`expected ${batch.orders} orders placed once each: ${JSON.stringify({ done, placed })}`);
    }
    const calls = batch.orders;
    // Windows open at the first call; the last one cannot open before (windows - 1) full windows have passed.
    const floor = (Math.ceil(calls / LIMIT) - 1) * WINDOW_SECONDS;
    const sustained = (calls / LIMIT) * WINDOW_SECONDS;
    return {
      name: `place ${calls.toLocaleString('en')} orders (${batch.rows.toLocaleString('en')} rows) at ${LIMIT}/${WINDOW_SECONDS} s CreateOrder limit: wall time (s)`,
      value: Number(seconds.toFixed(2)),
      unit: 's',
      baseline: { name: `least time the fixed-window limit allows: (ceil(${calls}/${LIMIT}) - 1) x ${WINDOW_SECONDS} s`, value: floor },
      ratio: Number((seconds / floor).toFixed(3)),
      sustainedRate: { name: `${calls} calls at the limit's average rate (${LIMIT / WINDOW_SECONDS}/s)`, value: sustained, ratio: Number((seconds / sustained).toFixed(3)) },
      importAndValidateMs: Math.round(importMs),
      ordersPerSecond: Math.round(calls / seconds),
    };
  } finally {
    await host.stop();
    db.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchResult[]> {
  return [parseAndValidate(), shopifyExportReadAndValidated(), await placeUnderRateLimit()];
}
