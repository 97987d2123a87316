// The dimensions overlay's labels: named as the model stands, clear of each other and of the canvas's
// covered bands, and gone when the edge they measure is out of sight.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as THREE from 'three';
import type { ParsedModel } from '../../common/models/index.ts';
import { buildSizeBox } from '../../renderer/viewer/size-box.ts';

const model = (max: [number, number, number]) => ({ facts: { bounds: { min: [0, 0, 0], max } } }) as unknown as ParsedModel;

/** The box as the stage has it: its lines in the model's root (Box3Helper places itself by its parent). */
function boxOf(max: [number, number, number]) {
  const box = buildSizeBox(model(max));
  new THREE.Group().add(box.lines);
  return box;
}

function cameraAt(position: [number, number, number], target: [number, number, number]) {
  const camera = new THREE.PerspectiveCamera(40, 4 / 3, 0.1, 10_000);
  camera.position.set(...position);
  camera.lookAt(...target);
  camera.updateMatrixWorld();
  return camera;
}

const overlap = (a: { x: number; y: number; text: string }, b: { x: number; y: number; text: string }) =>
  Math.abs(a.x - b.x) < (a.text.length * 6.5 + 8 + b.text.length * 6.5 + 8) / 2 && Math.abs(a.y - b.y) < 18;

test('width, depth and height as the model stands, whichever axis is up in the file', () => {
  const box = boxOf([40, 30, 20]);
  const camera = cameraAt([80, 70, 90], [20, 15, 10]);
  const byAxis = (up: 'y' | 'z') => Object.fromEntries(box.labels(camera, 800, 600, up).map((label) => [label.axis, label.text.split(' ')[0]]));
  assert.deepEqual(byAxis('z'), { x: 'Width', y: 'Depth', z: 'Height' });
  assert.deepEqual(byAxis('y'), { x: 'Width', y: 'Height', z: 'Depth' });
});

test('labels keep off each other and out of the covered bands, even pressed against the top', () => {
  // A thin, tall part seen from above and close: its labels crowd the top of a small canvas.
  const box = boxOf([1.6, 0.35, 3]);
  const camera = cameraAt([1.5, 2, 6], [0.8, 0.2, 1.5]);
  const labels = box.labels(camera, 320, 240, 'z', { top: 80, bottom: 40 });
  for (const label of labels) assert.ok(label.y >= 80 && label.y <= 200, `${label.text} at ${label.y}`);
  for (const [i, a] of labels.entries()) for (const b of labels.slice(i + 1)) assert.ok(!overlap(a, b), `${a.text} over ${b.text}`);
});

test('an edge panned out of the canvas has no label pinned to the border', () => {
  const box = boxOf([40, 30, 20]);
  // Looking well to the side of the model: it is out of the picture.
  const camera = cameraAt([80, 70, 90], [300, 15, 10]);
  assert.deepEqual(box.labels(camera, 800, 600, 'z'), []);
});
