import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createProgressPrinter, describeEnd, describeProgress, formatSeconds, listErrors } from '../../electron/services/batch/cli-output.ts';
import type { BatchProgress, BatchReportRow } from '../../electron/services/batch/schemas.ts';

const progress = (done: number, left: number, extra: Partial<BatchProgress> = {}): BatchProgress => ({
  batchId: 'b', state: 'sending', total: done + left, done, failed: 0, left, cancelled: 0, skipped: 0, ratePerSecond: 20, etaSeconds: Math.ceil(left / 20), concurrency: 16, waiting: null, sentBy: null, preparing: false, joined: false, ...extra,
});

test('progress reads as done / failed / left, rate and time left', () => {
  assert.equal(describeProgress(progress(40, 60)), '40/100 sent: 40 placed, 0 failed, 60 left · 20.0 orders/s · about 3 s left');
  assert.equal(describeProgress(progress(100, 0, { ratePerSecond: 0, etaSeconds: 0 })), '100/100 sent: 100 placed, 0 failed, 0 left');
  assert.equal(formatSeconds(125), '2 min 5 s');
  assert.equal(formatSeconds(7_260), '2 h 1 min');
});

test('a batch held up says why, and when it goes on', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  const waiting = (forService: boolean) => progress(0, 40, { ratePerSecond: 0, etaSeconds: null, waiting: { until: new Date(now + 4_000).toISOString(), forService } });
  assert.equal(describeProgress(waiting(false), now), '0/40 sent: 0 placed, 0 failed, 40 left · the service asked to wait (a rate limit or a failure): next try in 4 s');
  assert.equal(describeProgress(waiting(true), now), '0/40 sent: 0 placed, 0 failed, 40 left · waiting for the service to be reachable');
});

test('on a terminal the line is redrawn in place; elsewhere plain lines, throttled', () => {
  let clock = 0;
  let tty = '';
  const onTty = createProgressPrinter({ write: (s: string) => (tty += s), isTTY: true }, () => clock);
  onTty.update(progress(1, 9));
  clock += 50;
  onTty.update(progress(2, 8));
  clock += 100;
  onTty.update(progress(3, 7));
  onTty.done();
  assert.equal(tty.split('\r\x1b[2K').length - 1, 2);
  assert.ok(tty.endsWith('\n'));
  let plain = '';
  const onPipe = createProgressPrinter({ write: (s: string) => (plain += s) }, () => clock);
  onPipe.update(progress(1, 9));
  clock += 1_000;
  onPipe.update(progress(2, 8));
  onPipe.update(progress(10, 0), true);
  onPipe.done();
  assert.deepEqual(plain.trim().split('\n').map((l) => l.slice(0, 22)), ['progress: 1/10 sent: 1', 'progress: 10/10 sent: ']);
  assert.ok(!plain.includes('\x1b'), 'no terminal codes in a pipe');
});

test('problems are listed by row and column, at most twenty', () => {
  let out = '';
  listErrors({ write: (s: string) => (out += s) }, Array.from({ length: 25 }, (_, i) => ({ row: i + 2, column: 'email', field: 'email' as const, message: 'Not an email address', kind: 'error' as const })));
  assert.match(out, /^ {2}row 2, email: Not an email address\n/);
  assert.match(out, /… and 5 more/);
});

test('the last line tells what this run placed from what was placed before', () => {
  const rows = (outcomes: [string, string | null][]) => outcomes.map(([outcome, orderId], i) => ({ row: i + 2, reference: `R-${i}`, outcome, orderId, message: null, cells: [] }) as BatchReportRow);
  const placed: [string, string | null] = ['placed', 'o'];
  const skipped: [string, string | null] = ['skipped', 'o'];
  assert.equal(describeEnd(rows([placed, placed]), 0), 'All 2 rows placed.');
  // The same file again: its batch's rows were placed by the first run.
  assert.equal(describeEnd(rows([placed, placed]), 2), 'Nothing new to place: all 2 rows were placed before.');
  assert.equal(describeEnd(rows([skipped, placed, placed]), 1), '1 of 3 rows placed; 2 were placed before and skipped.');
  assert.equal(describeEnd(rows([placed, ['rejected', null], skipped]), 0, 'out.csv'), '1 of 3 rows were not placed (1 placed now, 1 was placed before and skipped); see out.csv.');
});
