// What `printdesk batch` writes: one updating progress line on a terminal, plain lines in a
// pipe or a CI log, and problems listed row by row.
import { FIELD_LABELS } from '../../../common/batch/mapping.ts';
import { NOT_OPEN_LABELS, type NotOpen } from '../../../common/batch/platforms/types.ts';
import { formatSeconds, waitingText } from '../../../common/batch/progress-words.ts';
import type { BatchError, BatchProgress, BatchReportRow } from './schemas.ts';

export { formatSeconds };

export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

const PLAIN_EVERY_MS = 5_000;
const TTY_EVERY_MS = 100;
const MAX_LISTED = 20;

export function describeProgress(p: BatchProgress, now: number = Date.now()): string {
  const settled = p.done + p.failed;
  const parts = [`${settled}/${p.total} sent: ${p.done} placed, ${p.failed} failed, ${p.left} left`];
  if (p.ratePerSecond > 0) parts.push(`${p.ratePerSecond.toFixed(1)} orders/s`);
  if (p.waiting && p.state === 'sending') parts.push(waitingText(p.waiting, now));
  else if (p.left > 0 && p.etaSeconds !== null) parts.push(`about ${formatSeconds(p.etaSeconds)} left`);
  return parts.join(' · ');
}

/** "Checking shipping: 120/450 quotes · about 1 min left", or what it waits for. */
export function describeChecking(c: { done: number; total: number; etaSeconds: number | null; waitingUntil: string | null }, now: number = Date.now()): string {
  const parts = [`Checking shipping: ${c.done}/${c.total} ${c.total === 1 ? 'quote' : 'quotes'}`];
  if (c.waitingUntil) parts.push(`the service's rate limit: next quotes in ${formatSeconds(Math.max(1, (Date.parse(c.waitingUntil) - now) / 1000))}`);
  if (c.done < c.total && c.etaSeconds !== null) parts.push(`about ${formatSeconds(c.etaSeconds)} left`);
  return parts.join(' · ');
}

/** Throttled progress: redrawn in place on a TTY, one line every few seconds elsewhere. */
export function createProgressPrinter(out: Output, now: () => number = Date.now) {
  let last = -Infinity;
  let drawn = false;
  function show(text: string, label: string, force: boolean) {
    const every = out.isTTY ? TTY_EVERY_MS : PLAIN_EVERY_MS;
    if (!force && now() - last < every) return;
    last = now();
    if (out.isTTY) {
      out.write(`\r\x1b[2K${text}`);
      drawn = true;
    } else out.write(`${label}: ${text}\n`);
  }
  return {
    update: (p: BatchProgress, force = false) => show(describeProgress(p), 'progress', force),
    /** Checking a batch's shipping: how many quotes of how many, and how long to go. */
    checking: (c: Parameters<typeof describeChecking>[0], force = false) => show(describeChecking(c, now()), 'checking', force || c.done === c.total),
    /** Ends the updating line so what follows starts on a fresh one. */
    done() {
      if (drawn) out.write('\n');
      drawn = false;
    },
  };
}

export function listErrors(out: Output, errors: readonly BatchError[]) {
  for (const e of errors.slice(0, MAX_LISTED)) {
    // A field the file has no column for is named by its label.
    const where = e.column ?? (e.field ? FIELD_LABELS[e.field] : null);
    out.write(`  row ${e.row}${where ? `, ${where}` : ''}: ${e.message}\n`);
  }
  if (errors.length > MAX_LISTED) out.write(`  … and ${errors.length - MAX_LISTED} more (write them all with --report <file>)\n`);
}

/**
 * The last line of a run: what this run placed, told apart from what an earlier run (or another batch)
 * had placed, so that running a file again does not read as placing it all again.
 * `placedBefore`: rows of this batch already placed when the run began.
 */
export function describeEnd(rows: readonly BatchReportRow[], placedBefore: number, report?: string): string {
  const total = rows.length;
  const notPlaced = rows.filter((r) => !r.orderId).length;
  const placedNow = rows.filter((r) => r.outcome === 'placed').length - placedBefore;
  const placedEarlier = total - notPlaced - placedNow;
  const earlier = placedEarlier === 0 ? '' : `${placedEarlier} ${placedEarlier === 1 ? 'was' : 'were'} placed before and skipped`;
  if (notPlaced > 0) {
    const also = [placedNow > 0 ? `${placedNow} placed now` : '', earlier].filter(Boolean).join(', ');
    return `${notPlaced} of ${total} rows were not placed${also ? ` (${also})` : ''}${report ? `; see ${report}` : ''}.`;
  }
  if (placedEarlier === 0) return `All ${total} rows placed.`;
  if (placedNow === 0) return `Nothing new to place: all ${total} rows were placed before.`;
  return `${placedNow} of ${total} rows placed; ${earlier}.`;
}

/** "orders.csv: Shopify orders export, 13 line items in 10 orders" */
export function describeFile(fileName: string, layout: string | null, rowNoun: string, rows: number, orders: number): string {
  const counted = (n: number, noun: string) => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;
  const what = layout ? `${layout}, ` : '';
  return rowNoun === 'order' ? `${fileName}: ${what}${counted(rows, 'order')}` : `${fileName}: ${what}${counted(rows, rowNoun)} in ${counted(orders, 'order')}`;
}

export interface OpenRows {
  /** orders not taken by default, by why (the platform's status) */
  notTaken: ReadonlyArray<{ reason: NotOpen; orders: number }>;
  /** SKUs without a model, and how many rows name them */
  unmatchedSkus: ReadonlyArray<{ sku: string; rows: number }>;
  /** rows held back by another problem */
  otherProblemRows: number;
  platformName: string | null;
}

/**
 * What of a file is still not sent, and the flags that would send it: the end of a dry run, and of a run
 * again of a file whose valid rows were placed.
 */
export function describeOpenRows(open: OpenRows, command: readonly string[]): string[] {
  const lines: string[] = [];
  const flags: string[] = [];
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const reasons = open.notTaken.map((n) => n.reason);
  for (const { reason, orders } of open.notTaken) {
    lines.push(`  ${plural(orders, 'order')} ${NOT_OPEN_LABELS[reason]} on ${open.platformName ?? 'the platform'}: left out (--include ${reason} takes ${orders === 1 ? 'it' : 'them'})`);
  }
  if (reasons.length) flags.push(`--include ${reasons.join(',')}`);
  if (open.unmatchedSkus.length) {
    const listed = open.unmatchedSkus.slice(0, 10).map((s) => `"${s.sku}" (${plural(s.rows, 'row')})`).join(', ');
    lines.push(`  ${plural(open.unmatchedSkus.length, 'SKU')} without a model: ${listed}${open.unmatchedSkus.length > 10 ? ', …' : ''}. Give each one in a --sku-map file (columns SKU, Model name; "yes" under Not a print for what is no print), or pick them once in the app.`);
    flags.push('--sku-map skus.csv');
  }
  if (open.otherProblemRows) {
    // Given --skip-invalid already, the rest went: only a fix in the file sends these.
    const rest = command.includes('--skip-invalid') ? 'left out by --skip-invalid: fix them in the file to send them' : 'fix them in the file, or --skip-invalid sends the rest';
    lines.push(`  ${plural(open.otherProblemRows, 'row')} with other problems (listed above): ${rest}.`);
  }
  if (lines.length === 0) return [];
  const run = flags.length ? [`To send them: ${[...command, ...flags].join(' ')}`] : [];
  return ['Still open:', ...lines, ...run];
}
