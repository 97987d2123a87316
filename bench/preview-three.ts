// The preview bench's outside baseline: what a viewer built on three.js's own loader does with the same
// bytes on the page's thread (`STLLoader.parse`, a mesh, one frame), on a blank page of its own.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { longestTask, watchLongTasks } from './long-tasks.ts';

export interface Opening {
  /** Click to the model drawn. */
  shownMs: number;
  /** Longest main-thread task from the click until the page settled. */
  longestTaskMs: number;
}

/** three.js's STLLoader and a WebGLRenderer, bundled for a blank page. */
export async function threeViewerScript(): Promise<string> {
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
export async function serve(bytes: Uint8Array): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === '/model.stl') return res.end(bytes);
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><body style="margin:0"></body>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function openWithThree(browser: Browser, origin: string, script: string, view: { width: number; height: number }): Promise<Opening> {
  const context = await browser.newContext({ viewport: view });
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
      { width: view.width - 400, height: view.height - 170 },
    );
    await page.waitForTimeout(1_500);
    return { shownMs, longestTaskMs: await longestTask(page) };
  } finally {
    await context.close();
  }
}
