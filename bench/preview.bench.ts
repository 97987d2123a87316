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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { binaryStl, torusWith } from '../scripts/generate-models.ts';
import { launchChromium, openApp } from '../tests/e2e/harness.ts';
import { libraryWith } from '../tests/e2e/library-with.ts';
import { modelDetail } from '../tests/e2e/pages/model-detail.ts';
import { framesDrawn, keyLatencies, turnPreview, typeUntil, watchKeyLatency, withoutOffscreenCanvas } from '../tests/e2e/preview-input.ts';
import { forgetTasks, longestTask, longestTaskAt, watchLongTasks } from './long-tasks.ts';
import { openWithThree, serve, threeViewerScript, type Opening } from './preview-three.ts';
import type { BenchResult } from './run.ts';

const TRIANGLES = 2_000_000;
const RUNS = 3;
const TURN_MS = 3_000;
const VIEW = { width: 1200, height: 780 };
/** Each stage's median over the runs that reached it, in the order of the medians. */
const medianStages = (runs: Pick<Session, 'stages'>[]) => {
  const names = [...new Set(runs.flatMap((run) => Object.keys(run.stages)))];
  const medians = names.map((stage) => [stage, median(runs.map((run) => run.stages[stage]).filter((at) => at !== undefined))] as const);
  return Object.fromEntries(medians.sort((a, b) => a[1] - b[1]));
};
/** The median of the runs that have a figure (NaN: none has). */
const median = (values: number[]) => {
  const known = values.filter(Number.isFinite).sort((a, b) => a - b);
  return known.length ? known[Math.floor(known.length / 2)] : NaN;
};
const round = (value: number, digits = 0) => Number(value.toFixed(digits));


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
  /** The same model opened again in the same session, from the library. */
  again: Omit<Session, 'turningTaskMs' | 'fps' | 'again'>;
}

type Library = Awaited<ReturnType<typeof libraryWith>>;
type Detail = ReturnType<typeof modelDetail>;

/** Opens the model from the library, renaming it meanwhile, and measures the opening until its check is done. */
async function measureOpening(page: Page, lib: Library, model: Detail): Promise<Omit<Session, 'turningTaskMs' | 'fps' | 'again'>> {
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
  await field.press('Escape');
  // Each key is timed at the frame after it, then a task: the last keys' are waited for (at most 5 s).
  await page.waitForFunction((keys) => (window as unknown as { keyLatencies: number[] }).keyLatencies.length >= keys, typed.length, { timeout: 5_000 }).catch(() => undefined);
  const latencies = await keyLatencies(page);
  // The first frame done (rasterized, without a GPU): the stage marks its next animation frame.
  await page.waitForFunction(() => performance.getEntriesByName('preview:stage-frame-done').some((mark) => mark.startTime > (performance.getEntriesByName('preview:click').at(-1)?.startTime ?? 0)), null, { timeout: 60_000, polling: 100 }).catch(() => undefined);
  const frameDoneMs = await page.evaluate(() => {
    const at = (name: string) => performance.getEntriesByName(name).at(-1)?.startTime;
    const [click, done] = [at('preview:click'), at('preview:stage-frame-done')];
    return click !== undefined && done !== undefined && done > click ? Math.round(done - click) : NaN;
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
  // A page whose frames were held up past the typing may have timed no key: said as no figure, not as 0.
  const keyMedianMs = latencies.length ? median(latencies) : NaN;
  const keyMaxMs = latencies.length ? Math.max(...latencies) : NaN;
  return { shownMs, frameDoneMs, longestTaskMs, longestTaskFromClickMs, keyMedianMs, keyMaxMs, everyKey, stages };
}

/**
 * A session: the app opened fresh, the model opened (the session's first preview: its stage was started
 * while the library showed, at a size it then changes), turned, and then opened a second time from the
 * library, as a user going through models does (the stage kept, at the same size).
 */
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
    const first = await measureOpening(page, lib, model);
    const before = await framesDrawn(page);
    const turningFrom = Date.now();
    await turnPreview(page, model.canvas, TURN_MS);
    const fps = ((await framesDrawn(page)) - before) / ((Date.now() - turningFrom) / 1000);
    const turningTaskMs = await longestTask(page);
    const drawnInNow = await model.drawnIn();
    if (drawnInNow !== drawnIn) throw new Error(`The preview was drawn in the ${drawnInNow}, not the ${drawnIn}`);
    await model.backToLibrary.click();
    await lib.rows.first().waitFor();
    await page.waitForTimeout(1_000);
    const again = await measureOpening(page, lib, model);
    return { ...first, turningTaskMs, fps, again };
  } finally {
    await app.close();
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
        three.push(await openWithThree(browser, files.origin, script, VIEW));
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
      // A user goes through models: from the second preview of a session on, the stage is kept at its size.
      {
        ...figure(`${subject}, opened a second time in the session: click to the model on screen (median ms; aim 1000; ratio below 1 is better)`, 'ms', (o) => o.again.shownMs),
        stages: { worker: medianStages(worker.map((o) => o.again)), page: medianStages(page.map((o) => o.again)) },
      },
      figure(`${subject}, opened a second time in the session: click to the first frame done (median ms; aim 1000; ratio below 1 is better)`, 'ms', (o) => o.again.frameDoneMs),
      figure(`${subject}, opened a second time in the session: longest main-thread task from the click to the model on screen (median ms; aim 50; ratio below 1 is better)`, 'ms', (o) => o.again.longestTaskMs),
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
    const each = (openings: Omit<Session, 'turningTaskMs' | 'fps' | 'again'>[]) => ({
      runs: openings.map((o) => o.shownMs),
      frameDone: openings.map((o) => o.frameDoneMs),
      stages: openings.map((o) => o.stages),
      longestTaskMs: openings.map((o) => o.longestTaskMs),
      longestTaskFromClickMs: openings.map((o) => o.longestTaskFromClickMs),
    });
    const name = (which: string) => `preview of a 2M-triangle binary STL, ${which}: click to the model on screen, the app's own path only (median ms)`;
    const none = { name: 'none (worker only)', value: null };
    return [
      { name: name("the session's first"), value: median(sessions.map((o) => o.shownMs)), unit: 'ms', baseline: none, ratio: null, ...each(sessions) },
      { name: name('opened a second time in the session'), value: median(sessions.map((o) => o.again.shownMs)), unit: 'ms', baseline: none, ratio: null, ...each(sessions.map((o) => o.again)) },
    ];
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}
