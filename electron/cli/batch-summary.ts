// What `printdesk batch` says of a batch besides its progress: a dry run's verdict, what the orders cost to
// ship, and the rows still held back with the flags that would send them.
import { describeCosts } from '../../common/batch/costs.ts';
import { countryName } from '../../common/orders/countries.ts';
import { describeOpenRows, type OpenRows } from '../services/batch/cli-output.ts';
import type { BatchSummary } from '../services/batch/schemas.ts';
import type { BatchOptions } from './batch-options.ts';
import type { BatchIo } from './batch.ts';
import { EXIT } from './exit.ts';
import type { CliHost } from './host.ts';

/** Exit 0 only when every row would be sent (or was placed before, or is marked no print). */
export async function dryRun(host: CliHost, batch: BatchSummary, opts: BatchOptions, io: BatchIo, writeReport: () => Promise<void>, stillOpen: () => Promise<void>): Promise<number> {
  await writeReport();
  const latest = await host.call('batch:get', { batchId: batch.id });
  const skipped = latest.usedElsewhere;
  const notTaken = latest.notTaken.reduce((n, t) => n + t.orders, 0);
  // Orders this file's earlier run queued or placed are neither held back nor new.
  const held = Math.max(0, latest.orders - latest.sendable - skipped - notTaken - latest.queued);
  const ok = latest.orders - held - notTaken;
  const valid = held > 0 ? `${ok} of ${latest.orders} orders are valid (${held} with problems would be left out)` : `${ok} ${ok === 1 ? 'order is' : 'orders are'} valid`;
  const before = skipped ? `${skipped} ${skipped === 1 ? 'was' : 'were'} sent before and would be skipped, ` : '';
  const left = notTaken ? `${notTaken} not taken (see below), ` : '';
  const sentBefore = batch.sentAt ? ` This file was sent before (on ${batch.sentAt.slice(0, 10)}); running it again only sends what that run did not.` : '';
  io.stdout.write(`Dry run: ${valid}; ${before}${left}${latest.sendable} would be sent. Nothing was sent.${sentBefore}\n`);
  await printCosts(host, batch.id, io);
  await stillOpen();
  const open = latest.notTaken.some((t) => t.reason !== 'no-prints');
  return held > 0 || open ? EXIT.partial : EXIT.ok;
}

/** What a batch still holds back, for the lines that say which flags would send it. */
async function openRowsOf(host: CliHost, batchId: string): Promise<OpenRows> {
  const summary = await host.call('batch:get', { batchId });
  const unmatched = (await host.call('batch:skus', { batchId })).filter((s) => !s.match && !s.skip);
  const skuRows = new Set((await host.call('batch:errors', { batchId, kinds: ['error'] })).filter((e) => e.field === 'sku').map((e) => e.row));
  return {
    notTaken: summary.notTaken.flatMap((t) => (t.reason === 'no-prints' ? [] : [{ reason: t.reason, orders: t.orders }])),
    unmatchedSkus: unmatched.map((s) => ({ sku: s.sku, rows: s.rows })),
    otherProblemRows: Math.max(0, summary.rowsWithErrors - skuRows.size),
    platformName: summary.layout?.name ?? null,
  };
}

/** The command as it was given, to which the flags that would send the rest are added. */
function commandOf(opts: BatchOptions): string[] {
  const quote = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`);
  const parts = ['printdesk', 'batch', quote(opts.file), '--project', quote(opts.project)];
  if (opts.service) parts.push('--service', quote(opts.service));
  if (opts.layout) parts.push('--layout', opts.layout);
  for (const [field, value] of Object.entries(opts.constants ?? {})) parts.push('--set', quote(`${field === 'phoneNumber' ? 'phone' : field}=${value}`));
  if (opts.skipInvalid) parts.push('--skip-invalid');
  return parts;
}

/** What the orders about to be sent cost to ship, by method and country, and when they arrive. */
export async function printCosts(host: CliHost, batchId: string, io: BatchIo) {
  for (const line of describeCosts(await host.call('batch:costs', { batchId }), countryName)) io.stdout.write(`${line}\n`);
}

/** The rows of a batch still held back, each kind with the flags that would send it. */
export async function describeStillOpen(host: CliHost, batchId: string, opts: BatchOptions): Promise<string[]> {
  return describeOpenRows(await openRowsOf(host, batchId), commandOf(opts));
}
