// `npm run bench -- preview`: opening a 2M-triangle binary STL (100 MB) in the app, as a user does (browser
// mode, the real host and sandbox, Chromium with software WebGL), against what a viewer built on three.js's
// own loader does with the same bytes on the page's main thread: `STLLoader.parse`, a mesh, one frame.
// Two figures: the longest the page could not answer (main-thread long tasks while the model opens) and the
// time from the click to the model on screen. Software rendering is the slow case on purpose: on a GPU
// every frame is cheap, without one (a VM, a blocked driver) it is what the user waits on.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { binaryStl, torusWith } from '../scripts/generate-models.ts';
import { launchChromium, openApp } from '../tests/e2e/harness.ts';
import { libraryPage } from '../tests/e2e/pages/library.ts';
import { workspace } from '../tests/e2e/pages/orders.ts';
import { projectsPage } from '../tests/e2e/pages/projects.ts';
import { signInPage } from '../tests/e2e/pages/sign-in.ts';
import type { BenchResult } from './run.ts';

const TRIANGLES = 2_000_000;
const RUNS = 3;
const VIEW = { width: 1200, height: 780 };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number) => Number(value.toFixed(0));

interface Opening {
  /** Click to the model drawn. */
  shownMs: number;
  /** Longest main-thread task from the click until the page settled. */
  longestTaskMs: number;
}

/** Records main-thread long tasks from now on, into window.longTasks. */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const tasks: number[] = [];
    (window as unknown as { longTasks: number[] }).longTasks = tasks;
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration))).observe({ type: 'longtask' });
  });
}

const longestTask = (page: Page) => page.evaluate(() => Math.max(0, ...(window as unknown as { longTasks: number[] }).longTasks));

async function openInApp(browser: Browser, file: string): Promise<Opening> {
  const app = await openApp(browser);
  try {
    const lib = libraryPage(app.page);
    await app.page.getByTestId('dismiss-vault-notice').click();
    await signInPage(app.page).signInWithDemo();
    await projectsPage(app.page).items.first().click();
    await workspace(app.page).nav('library');
    await lib.fileInput.setInputFiles([file]);
    await app.page.waitForFunction(() => document.querySelectorAll('[data-testid="model-row"]').length === 1, null, { timeout: 120_000 });
    await app.page.waitForTimeout(1_000);
    await watchLongTasks(app.page);
    const started = Date.now();
    await lib.names.first().click();
    await app.page.locator('[data-testid="viewer"][data-state="ready"]').waitFor({ timeout: 120_000 });
    const shownMs = Date.now() - started;
    // Holes and shells are counted after the picture; the page must stay answerable through that too.
    await app.page.getByTestId('topology-pending').waitFor({ state: 'detached', timeout: 120_000 });
    await app.page.waitForTimeout(1_500);
    return { shownMs, longestTaskMs: await longestTask(app.page) };
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

export async function run(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'printdesk-preview-bench-'));
  const browser = await launchChromium();
  try {
    const bytes = binaryStl(torusWith(TRIANGLES));
    const file = join(dir, 'torus-2m.stl');
    await writeFile(file, bytes);
    const script = await threeViewerScript();
    const files = await serve(bytes);
    const ours: Opening[] = [];
    const three: Opening[] = [];
    try {
      for (let i = 0; i < RUNS; i++) {
        ours.push(await openInApp(browser, file));
        three.push(await openWithThree(browser, files.origin, script));
      }
    } finally {
      await files.close();
    }
    const figure = (name: string, pick: (opening: Opening) => number, baseline: string): BenchResult => {
      const value = round(median(ours.map(pick)));
      const base = round(median(three.map(pick)));
      return { name, value, unit: 'ms', baseline: { name: baseline, value: base }, ratio: Number((value / base).toFixed(2)), runs: { ours: ours.map(pick).map(round), three: three.map(pick).map(round) } };
    };
    return [
      figure('preview of a 2M-triangle binary STL: longest main-thread task while it opens (median ms; ratio below 1 is better)', (o) => o.longestTaskMs, 'three STLLoader.parse + mesh + one frame on the main thread'),
      figure('preview of a 2M-triangle binary STL: click to the model on screen (median ms; ratio below 1 is better)', (o) => o.shownMs, 'three STLLoader.parse + mesh + one frame, file already in memory'),
    ];
  } finally {
    await browser.close();
    await rm(dir, { recursive: true, force: true });
  }
}
