// `npm run bench -- preview`: opening a 2M-triangle binary STL (100 MB) in the app, as a user does (browser
// mode, the real host and sandbox, Chromium with software WebGL), then turning it for 3 s. The preview draws
// in a worker on an OffscreenCanvas; each figure is set beside the same app drawing on the page's own thread
// (the path it takes where OffscreenCanvas is missing, and the one it always took before), in the same run.
// Figures: the longest main-thread task from the click to the model on screen and while turning, the time
// to the model on screen, frames per second while turning, and how long a key typed into the page (the
// model's rename field) takes to show while the model opens. The opening figures are also set beside what
// a viewer built on three.js's own loader does with the same bytes on the page's thread: `STLLoader.parse`,
// a mesh, one frame. Software rendering is the slow case on purpose: on a GPU every frame is cheap, without
// one (a VM, a blocked driver) it is what the user waits on.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { binaryStl, torusWith } from '../scripts/generate-models.ts';
import { launchChromium, openApp } from '../tests/e2e/harness.ts';
import { libraryWith } from '../tests/e2e/library-with.ts';
import { modelDetail } from '../tests/e2e/pages/model-detail.ts';
import { framesDrawn, keyLatencies, turnPreview, typeUntil, watchKeyLatency, withoutOffscreenCanvas } from '../tests/e2e/preview-input.ts';
import type { BenchResult } from './run.ts';

const TRIANGLES = 2_000_000;
const RUNS = 3;
const TURN_MS = 3_000;
const VIEW = { width: 1200, height: 780 };
/** Each stage's median over the runs that reached it, in the order of the medians. */
const medianStages = (runs: Session[]) => {
  const names = [...new Set(runs.flatMap((run) => Object.keys(run.stages)))];
  const medians = names.map((stage) => [stage, median(runs.map((run) => run.stages[stage]).filter((at) => at !== undefined))] as const);
  return Object.fromEntries(medians.sort((a, b) => a[1] - b[1]));
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number, digits = 0) => Number(value.toFixed(digits));

interface Opening {
  /** Click to the model drawn. */
  shownMs: number;
  /** Longest main-thread task from the click until the page settled. */
  longestTaskMs: number;
}

interface Session extends Opening {
  /** Click to the first frame with the model done: rasterized, without a GPU, and so on screen. */
  frameDoneMs: number;
  /** When the longest task from the click on began, from the click (ms), beside the stages: which one it held up. */
  longestTaskFromClickMs: number | null;
  /** Longest main-thread task while the model is turned for TURN_MS. */
  turningTaskMs: number;
  /** Frames the preview drew per second while turned. */
  fps: number;
  /** Key to a frame showing it, while the model opens: the median and the slowest key. */
  keyMedianMs: number;
  keyMaxMs: number;
  /** Whether the field held every key typed. */
  everyKey: boolean;
  /** From the click to each stage of opening (ModelDetail's and Viewer's performance marks), ms. */
  stages: Record<string, number>;
}

/** Records main-thread long tasks from now on (when each started, and how long it took), into window.longTasks. */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const tasks: [number, number][] = [];
    (window as unknown as { longTasks: [number, number][] }).longTasks = tasks;
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push([entry.startTime, entry.duration]))).observe({ type: 'longtask' });
  });
}

const longestTask = (page: Page) => page.evaluate(() => Math.max(0, ...(window as unknown as { longTasks: [number, number][] }).longTasks.map(([, duration]) => duration)));
/** When the longest task began, from the click (ms), to tell which stage of opening it belongs to; null without one. */
const longestTaskAt = (page: Page) =>
  page.evaluate(() => {
    const tasks = (window as unknown as { longTasks: [number, number][] }).longTasks;
    const click = performance.getEntriesByName('preview:click').at(-1)?.startTime ?? 0;
    const longest = tasks.reduce<[number, number] | null>((best, task) => (!best || task[1] > best[1] ? task : best), null);
    return longest ? Math.round(longest[0] - click) : null;
  });
const forgetTasks = (page: Page) => page.evaluate(() => void ((window as unknown as { longTasks: [number, number][] }).longTasks.length = 0));

async function openInApp(browser: Browser, file: string, drawnIn: 'worker' | 'page'): Promise<Session> {
  const app = await openApp(browser);
  try {
    if (drawnIn === 'page') await withoutOffscreenCanvas(app.page);
    const page = app.page;
    const lib = await libraryWith(page, file, 120_000);
    const model = modelDetail(page);
    // The library's own thumbnail of the new file is drawn before the clock starts.
    await lib.thumbnailDrawn(120_000).catch(() => undefined);
    await page.waitForTimeout(1_000);
    await watchLongTasks(page);
    await watchKeyLatency(page);
    await page.evaluate(() => performance.mark('preview:click'));
    const started = Date.now();
    await lib.open();
    let shownMs = 0;
    const shown = model.previewReady(120_000).then(() => (shownMs = Date.now() - started));
    // The user renames the model while it opens: every key must arrive, and soon.
    await model.rename.click();
    const field = model.nameField;
    const typed = await typeUntil(page, field, async () => shownMs > 0);
    await shown;
    const everyKey = (await field.inputValue()) === typed;
    const latencies = await keyLatencies(page);
    // The first frame done (rasterized, without a GPU): the stage marks its next animation frame.
    await page.waitForFunction(() => performance.getEntriesByName('preview:stage-frame-done').length > 0, null, { timeout: 60_000, polling: 100 }).catch(() => undefined);
    const frameDoneMs = await page.evaluate(() => {
      const at = (name: string) => performance.getEntriesByName(name).at(-1)?.startTime;
      const [click, done] = [at('preview:click'), at('preview:stage-frame-done')];
      return click !== undefined && done !== undefined ? Math.round(done - click) : NaN;
    });
    // Every stage marked (the page's, and its workers' placed on its timeline: renderer/viewer/marks.ts), in order.
    const stages = await page.evaluate(() => {
      const click = performance.getEntriesByName('preview:click').at(-1)?.startTime ?? 0;
      const marks = performance.getEntriesByType('mark').filter((mark) => mark.name.startsWith('preview:') && mark.name !== 'preview:click' && mark.startTime >= click);
      const last = new Map(marks.map((mark) => [mark.name.slice('preview:'.length), Math.round(mark.startTime - click)]));
      return Object.fromEntries([...last].sort((a, b) => a[1] - b[1]));
    });
    // Holes and shells are counted after the picture; the page must stay answerable through that too.
    await model.topologyPending.waitFor({ state: 'detached', timeout: 120_000 });
    await page.waitForTimeout(1_500);
    const longestTaskMs = await longestTask(page);
    const longestTaskFromClickMs = await longestTaskAt(page);
    await forgetTasks(page);
    const before = await framesDrawn(page);
    const turningFrom = Date.now();
    await turnPreview(page, model.canvas, TURN_MS);
    const fps = ((await framesDrawn(page)) - before) / ((Date.now() - turningFrom) / 1000);
    const turningTaskMs = await longestTask(page);
    const drawnInNow = await model.drawnIn();
    if (drawnInNow !== drawnIn) throw new Error(`The preview was drawn in the ${drawnInNow}, not the ${drawnIn}`);
    return { shownMs, frameDoneMs, longestTaskMs, longestTaskFromClickMs, turningTaskMs, fps, keyMedianMs: median(latencies), keyMaxMs: Math.max(...latencies), everyKey, stages };
  } finally {
    await app.close();
  }
}

/** three.js's STLLoader and a WebGLRenderer, bundled for a blank page. */
async function threeViewerScript(): Promise<string> {
  const contents = `
    import * as THREE from 'three';
    import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
    window.showWithThree = (buffer, width, height) => {
      const geometry = new STLLoader().parse(buffer);
      const canvas = document.createElement('canvas');
      document.body.append(canvas);
      const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });
      renderer.setSize(width, height);
      const scene = new THREE.Scene();
      scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8f96, 1.6));
      scene.add(new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: 0x4f8fd6 })));
      geometry.computeBoundingSphere();
      const camera = new THREE.PerspectiveCamera(35, width / height, 1, 10000);
      camera.position.set(200, 180, 260);
      camera.lookAt(geometry.boundingSphere.center);
      renderer.render(scene, camera);
      // The frame is finished once a pixel of it can be read.
      renderer.getContext().readPixels(0, 0, 1, 1, renderer.getContext().RGBA, renderer.getContext().UNSIGNED_BYTE, new Uint8Array(4));
    };`;
  const result = await build({ stdin: { contents, resolveDir: join(import.meta.dirname, '..') }, bundle: true, write: false, format: 'iife', logLevel: 'warning' });
  return result.outputFiles[0].text;
}

/** A blank page and the model file on a loopback port (a 100 MB body is too much for Playwright's routing). */
async function serve(bytes: Uint8Array): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === '/model.stl') return res.end(bytes);
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><body style="margin:0"></body>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function openWithThree(browser: Browser, origin: string, script: string): Promise<Opening> {
  const context = await browser.newContext({ viewport: VIEW });
  try {
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.addScriptTag({ content: script });
    await watchLongTasks(page);
    // Fetched first and outside the timing: the app's own figure includes reading the file, this does not.
    await page.evaluate(async () => {
      (window as unknown as { model: ArrayBuffer }).model = await (await fetch('/model.stl')).arrayBuffer();
    });
    // Run as a task of the page's own (a long task inside a DevTools evaluation is not reported).
    const shownMs = await page.evaluate(
      ({ width, height }) =>
        new Promise<number>((resolve) =>
          setTimeout(() => {
            const started = performance.now();
            const page = window as unknown as { showWithThree(buffer: ArrayBuffer, w: number, h: number): void; model: ArrayBuffer };
            page.showWithThree(page.model, width, height);
            resolve(performance.now() - started);
          }),
        ),
      { width: VIEW.width - 400, height: VIEW.height - 170 },
    );
    await page.waitForTimeout(1_500);
    return { shownMs, longestTaskMs: await longestTask(page) };
  } finally {
    await context.close();
  }
}

/**
 * `npm run bench -- preview` runs every path; `npm run bench -- preview worker [runs]` only the app's own
 * (a quick look at its figures and stages while working on them, with no baselines).
 */
export async function run(args: string[] = []): Promise<BenchResult[]> {
  if (args[0] === 'worker') return workerOnly(Number(args[1]) || 1);
  const dir = await mkdtemp(join(tmpdir(), 'printdesk-preview-bench-'));
  const browser = await launchChromium();
  try {
    const bytes = binaryStl(torusWith(TRIANGLES));
    const file = join(dir, 'torus-2m.stl');
    await writeFile(file, bytes);
    const script = await threeViewerScript();
    const files = await serve(bytes);
    const worker: Session[] = [];
    const page: Session[] = [];
    const three: Opening[] = [];
    try {
      for (let i = 0; i < RUNS; i++) {
        worker.push(await openInApp(browser, file, 'worker'));
        page.push(await openInApp(browser, file, 'page'));
        three.push(await openWithThree(browser, files.origin, script));
      }
    } finally {
      await files.close();
    }
    const of = <T>(runs: T[], pick: (run: T) => number, digits: number) => runs.map(pick).map((value) => round(value, digits));
    const figure = (name: string, unit: string, pick: (run: Session) => number, digits = 0): BenchResult => {
      const value = round(median(worker.map(pick)), digits);
      const base = round(median(page.map(pick)), digits);
      return { name, value, unit, baseline: { name: 'the same app drawing its preview on the page\'s thread (no OffscreenCanvas)', value: base }, ratio: base ? Number((value / base).toFixed(2)) : null, runs: { worker: of(worker, pick, digits), page: of(page, pick, digits) } };
    };
    const againstThree = (name: string, pick: (opening: Opening) => number, baseline: string): BenchResult => {
      const value = round(median(worker.map(pick)));
      const base = round(median(three.map(pick)));
      return { name, value, unit: 'ms', baseline: { name: baseline, value: base }, ratio: Number((value / base).toFixed(2)), runs: { worker: of(worker, pick, 0), three: of(three, pick, 0) } };
    };
    const subject = 'preview of a 2M-triangle binary STL';
    return [
      {
        ...figure(`${subject}: longest main-thread task from the click to the model on screen (median ms; aim 50; ratio below 1 is better)`, 'ms', (o) => o.longestTaskMs),
        // When each run's longest task began, from the click: set beside the stages, the one it held up.
        startedFromClickMs: { worker: worker.map((o) => o.longestTaskFromClickMs), page: page.map((o) => o.longestTaskFromClickMs) },
      },
      figure(`${subject}: longest main-thread task while turning it for 3 s (median ms; aim 50; ratio below 1 is better)`, 'ms', (o) => o.turningTaskMs),
      {
        ...figure(`${subject}: click to the model on screen (median ms; aim 1000; ratio below 1 is better)`, 'ms', (o) => o.shownMs),
        // Where the time goes: the file from the host, the stage ready, the model read and measured, drawn.
        stages: { worker: medianStages(worker), page: medianStages(page) },
      },
      figure(`${subject}: click to the first frame of the model done, rasterized: the stage's next animation frame (median ms; aim 1000; ratio below 1 is better)`, 'ms', (o) => o.frameDoneMs),
      figure(`${subject}: frames drawn per second while turning it (median; ratio above 1 is better)`, 'fps', (o) => o.fps, 1),
      figure(`${subject}: key pressed to shown in the rename field while the model opens, median key (median ms; ratio below 1 is better)`, 'ms', (o) => o.keyMedianMs),
      figure(`${subject}: key pressed to shown in the rename field while the model opens, slowest key (median ms; ratio below 1 is better)`, 'ms', (o) => o.keyMaxMs),
      { name: `${subject}: runs in which the rename field held every key typed while the model opened`, value: worker.filter((o) => o.everyKey).length, unit: 'runs', baseline: { name: 'the same app drawing on the page\'s thread', value: page.filter((o) => o.everyKey).length }, ratio: null, runs: RUNS },
      againstThree(`${subject}: longest main-thread task while it opens, against three.js on the page (median ms; ratio below 1 is better)`, (o) => o.longestTaskMs, 'three STLLoader.parse + mesh + one frame on the main thread'),
      againstThree(`${subject}: click to the model on screen, against three.js on the page (median ms; ratio below 1 is better)`, (o) => o.shownMs, 'three STLLoader.parse + mesh + one frame, file already in memory'),
    ];
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The app's own path alone: the time to the model on screen and its stages, each run's. */
async function workerOnly(runs: number): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'printdesk-preview-bench-'));
  const browser = await launchChromium();
  try {
    const file = join(dir, 'torus-2m.stl');
    await writeFile(file, binaryStl(torusWith(TRIANGLES)));
    const sessions: Session[] = [];
    for (let i = 0; i < runs; i++) sessions.push(await openInApp(browser, file, 'worker'));
    const shown = sessions.map((session) => session.shownMs);
    const frameDone = sessions.map((session) => session.frameDoneMs);
    return [{ name: 'preview of a 2M-triangle binary STL: click to the model on screen, the app\'s own path only (median ms)', value: median(shown), unit: 'ms', baseline: { name: 'none (worker only)', value: null }, ratio: null, runs: shown, frameDone, stages: sessions.map((session) => session.stages), longestTaskMs: sessions.map((session) => session.longestTaskMs), longestTaskFromClickMs: sessions.map((session) => session.longestTaskFromClickMs) }];
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}
