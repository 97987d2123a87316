// `npm run bench -- orders`: the Orders view over 10,000 orders in the app's local store, in Chromium (browser
// mode: the real host, bridge and sandbox), beside a plain HTML table of the same rows drawn whole, the way a
// page without a virtualised table shows them. Figures: the time from opening the view to the first painted
// table, the p95 latency of a sort and of a filter (input to the next frame painted), the longest main-thread
// task while scrolling from top to bottom (from a Chromium trace, so tasks under 50 ms count too), and the
// orders' trip from the store to the page. Aims (issue #28): sort and filter p95 < 100 ms, no task > 50 ms.
// The scroll goes a screenful a frame, the hardest fling. ORDERS_BENCH_TRACE=<path prefix> keeps the traces.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { sqliteSql } from '../electron/services/storage/sqlite-sql.ts';
import { databasePath, SANDBOX_SERVICE_KEY } from '../electron/services/paths.ts';
import { openDatabase } from '../electron/services/storage/database.ts';
import { createOrdersStore } from '../electron/services/orders/store.ts';
import { orderRow } from '../renderer/lib/order-table.ts';
import { formatMoney, formatStamp } from '../renderer/lib/format.ts';
import { launchChromium, openApp } from '../tests/e2e/harness.ts';
import { projectsPage } from '../tests/e2e/pages/projects.ts';
import { signInPage } from '../tests/e2e/pages/sign-in.ts';
import { seedOrders } from './orders-data.ts';
import { plainTableScript } from './plain-table.ts';
import type { BenchResult } from './run.ts';

const ORDERS = 10_000;
const ACCOUNT = `${SANDBOX_SERVICE_KEY} demo@printdesk.test`;
const VIEW = { width: 1280, height: 800 };
const OPENINGS = 5;
const SORTS = 27;
const FILTERS = 30;
const round = (value: number) => Number(value.toFixed(1));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)];

/**
 * What a page needs to time an input: the next frame painted after it, and a wait until something is drawn.
 * Defined through the DevTools protocol, which the app's Content-Security-Policy (no inline scripts) allows.
 */
export function addTiming(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { nextPaint(): Promise<void>; drawn(selector: string): Promise<void> };
    w.nextPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    w.drawn = async (selector) => {
      while (!document.querySelector(selector)) await new Promise((resolve) => requestAnimationFrame(resolve));
    };
  });
}

/** The longest task on the page's main thread in a Chromium trace, in ms. */
function longestTask(trace: Buffer): number {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: { name: string; ph: string; pid: number; tid: number; dur?: number; args?: { name?: string } }[] }).traceEvents;
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return Math.max(0, ...events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`)).map((e) => (e.dur ?? 0) / 1000));
}

/** Scrolls `selector` from top to bottom, a screenful a frame; resolves to the longest gap between two frames. */
function scrollDown(page: Page, selector: string): Promise<number> {
  return page.evaluate(async (s) => {
    const box = document.querySelector(s) as HTMLElement;
    let last = performance.now();
    let longest = 0;
    while (box.scrollTop + box.clientHeight < box.scrollHeight - 1) {
      box.scrollTop += box.clientHeight;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }
    await (window as unknown as { nextPaint(): Promise<void> }).nextPaint();
    return longest;
  }, selector);
}

/**
 * Scrolls `selector` from top to bottom twice: once under a Chromium trace, for the longest task on the main
 * thread; once without, for the longest gap between frames the user sees (the trace's own cost aside).
 */
export async function scrollThrough(browser: Browser, page: Page, selector: string): Promise<{ task: number; frameGap: number }> {
  const toTop = () =>
    page.evaluate(async (s) => {
      (document.querySelector(s) as HTMLElement).scrollTop = 0;
      await (window as unknown as { nextPaint(): Promise<void> }).nextPaint();
    }, selector);
  await toTop();
  const frameGap = await scrollDown(page, selector);
  await toTop();
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await scrollDown(page, selector);
  const trace = await browser.stopTracing();
  if (process.env.ORDERS_BENCH_TRACE) writeFileSync(`${process.env.ORDERS_BENCH_TRACE}-${selector.replace(/\W/g, '')}.json`, trace);
  return { task: longestTask(trace), frameGap };
}

/** Times each input from dispatch to the next frame painted. `inputs` run in the page, one per sample. */
async function timeInputs(page: Page, kind: 'sort' | 'filter', count: number, searchSelector: string): Promise<number[]> {
  return page.evaluate(
    async ({ kind, count, searchSelector }) => {
      const w = window as unknown as { nextPaint(): Promise<void>; sortBy(i: number): void };
      const queries = ['ada', 'berlin', 'shop-1', 'bracket', 'zürich', 'nobody by that name', '', 'lovelace', 'pd-', 'gear 24t'];
      const samples: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        if (kind === 'sort') w.sortBy(i);
        else {
          const input = document.querySelector(searchSelector) as HTMLInputElement;
          input.value = queries[i % queries.length];
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }
        await w.nextPaint();
        samples.push(performance.now() - started);
      }
      const input = document.querySelector(searchSelector) as HTMLInputElement;
      input.value = '';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await w.nextPaint();
      return samples;
    },
    { kind, count, searchSelector },
  );
}

interface Figures {
  firstPaint: number[];
  sort: number[];
  filter: number[];
  scroll: { task: number; frameGap: number };
  load: number[];
}

async function measureApp(browser: Browser): Promise<Figures & { rows: Record<string, string>[]; drafts: unknown[] }> {
  const app = await openApp(browser);
  try {
    const [project] = await app.booted.sandbox!.operator.listProjects();
    const db = openDatabase(databasePath(app.dir));
    await seedOrders(db, ACCOUNT, project.projectId, ORDERS);
    const drafts = await (await createOrdersStore(sqliteSql(db))).list(ACCOUNT, project.projectId);
    db.close();
    const page = app.page;
    await page.setViewportSize(VIEW);
    await page.getByTestId('dismiss-vault-notice').click();
    await signInPage(page).signInWithDemo();
    await projectsPage(page).items.first().click();
    await projectsPage(page).home.waitFor();
    await addTiming(page);
    // The project's orders are in the page once the overview counts them all.
    const placed = String(drafts.filter((d) => d.state === 'placed').length);
    await page.waitForFunction((n) => document.querySelector('[data-testid="tile-placed"] .value')?.textContent?.trim() === n, placed, { timeout: 60_000 });
    await page.waitForTimeout(1_000);

    const firstPaint: number[] = [];
    for (let i = 0; i < OPENINGS; i++) {
      firstPaint.push(
        await page.evaluate(async () => {
          const w = window as unknown as { nextPaint(): Promise<void>; drawn(s: string): Promise<void> };
          const started = performance.now();
          (document.querySelector('[data-testid="nav-orders"]') as HTMLElement).click();
          await w.drawn('[data-testid="order-row"]');
          await w.nextPaint();
          return performance.now() - started;
        }),
      );
      if (i < OPENINGS - 1) {
        await page.getByTestId('nav-overview').click();
        await page.getByTestId('project-home').waitFor();
      }
    }
    await page.evaluate(() => {
      const keys = ['reference', 'recipient', 'country', 'models', 'method', 'price', 'status', 'placedAt', 'batch'];
      (window as unknown as { sortBy(i: number): void }).sortBy = (i) => (document.querySelector(`[data-testid="sort-${keys[i % keys.length]}"]`) as HTMLElement).click();
    });
    const sort = await timeInputs(page, 'sort', SORTS, '[data-testid="orders-search"]');
    const filter = await timeInputs(page, 'filter', FILTERS, '[data-testid="orders-search"]');
    const scroll = await scrollThrough(browser, page, '[data-testid="orders-table"]');
    const load: number[] = [];
    for (let i = 0; i < 3; i++) {
      load.push(
        await page.evaluate(async (projectId) => {
          const started = performance.now();
          const answer = await (window as unknown as { printdesk: { drafts: { list(input: unknown): Promise<{ ok: boolean }> } } }).printdesk.drafts.list({ projectId });
          if (!answer.ok) throw new Error('drafts:list failed');
          return performance.now() - started;
        }, project.projectId),
      );
    }
    const rows = drafts.map((draft) => {
      const row = orderRow(draft);
      return { reference: row.reference, recipient: row.recipient, country: row.country, models: row.models, method: row.method, price: row.price === null ? '' : formatMoney(row.price), status: row.standing.label, placedAt: row.placedAt ? formatStamp(row.placedAt) : '', batch: row.batch };
    });
    return { firstPaint, sort, filter, scroll, load, rows, drafts };
  } finally {
    await app.close();
  }
}

/** A blank page on a loopback port, serving the same orders as JSON for the load figure. */
async function servePlain(drafts: unknown[]): Promise<{ origin: string; close(): Promise<void> }> {
  const body = JSON.stringify(drafts);
  const server = createServer((req, res) => {
    res.setHeader('content-type', req.url === '/orders.json' ? 'application/json' : 'text/html');
    res.end(req.url === '/orders.json' ? body : '<!doctype html><meta charset="utf-8"><body style="margin:0;font:13px system-ui"></body>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function measurePlain(browser: Browser, rows: Record<string, string>[], drafts: unknown[]): Promise<Figures> {
  const served = await servePlain(drafts);
  const context = await browser.newContext({ viewport: VIEW });
  try {
    const page = await context.newPage();
    await page.goto(`${served.origin}/`);
    await addTiming(page);
    await page.addScriptTag({ content: plainTableScript });
    await page.evaluate((data) => ((window as unknown as { rows: unknown }).rows = data), rows);
    const firstPaint: number[] = [];
    for (let i = 0; i < OPENINGS; i++) {
      firstPaint.push(
        await page.evaluate(async () => {
          const w = window as unknown as { nextPaint(): Promise<void>; showTable(): void };
          const started = performance.now();
          w.showTable();
          await w.nextPaint();
          return performance.now() - started;
        }),
      );
    }
    const sort = await timeInputs(page, 'sort', SORTS, '#search');
    const filter = await timeInputs(page, 'filter', FILTERS, '#search');
    const scroll = await scrollThrough(browser, page, '#scroller');
    const load: number[] = [];
    for (let i = 0; i < 3; i++) {
      load.push(
        await page.evaluate(async () => {
          const started = performance.now();
          await (await fetch('/orders.json')).json();
          return performance.now() - started;
        }),
      );
    }
    return { firstPaint, sort, filter, scroll, load };
  } finally {
    await context.close();
    await served.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const browser = await launchChromium();
  try {
    const ours = await measureApp(browser);
    const plain = await measurePlain(browser, ours.rows, ours.drafts);
    const figure = (name: string, value: number, base: number, baseline: string, extra: Record<string, unknown> = {}): BenchResult => ({
      name,
      value: round(value),
      unit: 'ms',
      baseline: { name: baseline, value: round(base) },
      ratio: base > 0 ? Number((value / base).toFixed(2)) : null,
      ...extra,
    });
    const samples = (a: number[], b: number[]) => ({ samples: { ours: a.map(round), plain: b.map(round) } });
    const table = `a plain HTML table of the same ${ORDERS.toLocaleString('en-US')} rows, drawn whole`;
    return [
      figure(`Orders view, ${ORDERS.toLocaleString('en-US')} orders: opening the view to the first painted table (median ms; ratio below 1 is better)`, median(ours.firstPaint), median(plain.firstPaint), table, samples(ours.firstPaint, plain.firstPaint)),
      figure('Orders view: sort latency, click to the next frame painted (p95 ms; aim < 100)', p95(ours.sort), p95(plain.sort), `${table}, sorted and drawn again`, { median: round(median(ours.sort)), ...samples(ours.sort, plain.sort) }),
      figure('Orders view: filter latency, typing to the next frame painted (p95 ms; aim < 100)', p95(ours.filter), p95(plain.filter), `${table}, filtered and drawn again`, { median: round(median(ours.filter)), ...samples(ours.filter, plain.filter) }),
      figure('Orders view: longest main-thread task while scrolling from top to bottom, a screenful a frame (ms, from a Chromium trace; aim < 50)', ours.scroll.task, plain.scroll.task, `${table}, scrolled the same way`),
      figure('Orders view: longest gap between two frames while scrolling from top to bottom, untraced (ms)', ours.scroll.frameGap, plain.scroll.frameGap, `${table}, scrolled the same way`),
      figure(`Orders view: the ${ORDERS.toLocaleString('en-US')} orders from the store to the page (drafts:list over the bridge, median ms)`, median(ours.load), median(plain.load), 'the same orders as JSON from a loopback HTTP server (fetch + parse)', samples(ours.load, plain.load)),
    ];
  } finally {
    await browser.close();
  }
}
