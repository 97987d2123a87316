// `npm run bench`: each figure beside a baseline measured in the same run, and their ratio.
// Prints one JSON document on stdout.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBrowserMode } from '../electron/browser/main.ts';
import { createHost } from '../electron/services/host.ts';
import { startTestSandbox } from '../sandbox/testing.ts';
import { createMemoryVault } from '../electron/services/session/token-vault.ts';
import { createMemoryStore } from '../electron/services/storage/memory-store.ts';
import { openDatabase } from '../electron/services/storage/database.ts';
import { launchChromium } from '../tests/e2e/harness.ts';
import { buildAll, isBuildCurrent } from '../scripts/build.ts';

const run = promisify(execFile);

export interface BenchResult {
  name: string;
  value: number;
  unit?: string;
  /** `value` null, with `failed` saying why, when the baseline cannot do the job at all. */
  baseline: { name: string; value: number | null; failed?: string };
  /** value ÷ baseline (or baseline ÷ value for times, as each result's name says); null without a baseline. */
  ratio: number | null;
  [extra: string]: unknown;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(times: number, fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return Number(median(samples).toFixed(2));
}

/** Sign-in through the host (contract, session, got, envelope) against `curl` doing the bare POST. */
async function signInRoundTrip() {
  const sandbox = await startTestSandbox({ rateLimits: { 'Auth/Login': { limit: 100_000, windowSeconds: 60 } } });
  try {
    const host = createHost({
      mode: 'browser',
      version: 'bench',
      platform: process.platform,
      store: createMemoryStore(),
      db: openDatabase(':memory:'),
      vault: createMemoryVault('bench'),
      sandbox: { baseUrl: sandbox.baseUrl, demoAccount: sandbox.demoAccount },
    });
    const body = JSON.stringify(sandbox.demoAccount);
    const curl = () => run('curl', ['-s', '-X', 'POST', '-H', 'content-type: application/json', '--data', body, `${sandbox.baseUrl}/Auth/Login`]);
    await curl();
    await host.invoke('session:signIn', sandbox.demoAccount);
    const ours = await timed(30, () => host.invoke('session:signIn', sandbox.demoAccount));
    const baseline = await timed(30, curl);
    return { name: 'sign-in round trip (median ms)', value: ours, baseline: { name: 'curl POST /Auth/Login', value: baseline }, ratio: Number((ours / baseline).toFixed(2)) };
  } finally {
    await sandbox.dispose();
  }
}

/** From launching browser mode to the sign-in form painted, against Chromium painting a static page. */
async function startToFirstPaint() {
  const dir = await mkdtemp(join(tmpdir(), 'printdesk-bench-'));
  const browser = await launchChromium();
  try {
    const samples: number[] = [];
    const baselines: number[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await browser.newPage();
      let started = performance.now();
      await page.goto('data:text/html,<h1>baseline</h1>');
      await page.locator('h1').waitFor();
      baselines.push(performance.now() - started);
      started = performance.now();
      const running = await startBrowserMode({ userDataDir: join(dir, String(i)) });
      await page.goto(running.server.url);
      await page.getByTestId('sign-in').waitFor();
      samples.push(performance.now() - started);
      await page.close();
      await running.close();
    }
    const ours = Number(median(samples).toFixed(1));
    const baseline = Number(median(baselines).toFixed(1));
    return { name: 'browser mode: start to sign-in painted (median ms)', value: ours, baseline: { name: 'Chromium painting a static page', value: baseline }, ratio: Number((ours / baseline).toFixed(2)) };
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Other benches live beside this file as `*.bench.ts`, each exporting `run(): Promise<BenchResult[]>`.
 * `npm run bench -- upload` runs only the files whose name contains "upload"; words after it go to its `run`
 * (`npm run bench -- parsers obj 1m`).
 */
async function discovered(only: string | undefined, args: string[]): Promise<BenchResult[]> {
  const files = (await readdir(import.meta.dirname)).filter((file) => file.endsWith('.bench.ts') && (!only || file.includes(only))).sort();
  const results: BenchResult[] = [];
  for (const file of files) {
    const module = (await import(join(import.meta.dirname, file))) as { run(args: string[]): Promise<BenchResult[]> };
    results.push(...(await module.run(args)));
  }
  return results;
}

if (!(await isBuildCurrent())) await buildAll();
const only = process.argv[2];
const results: BenchResult[] = only ? [] : [await signInRoundTrip(), await startToFirstPaint()];
results.push(...(await discovered(only, process.argv.slice(3))));
console.log(JSON.stringify({ node: process.version, date: new Date().toISOString(), results }, null, 2));
