// The camera's framing: a fitted model sits in the band below the tool row, centred there, whatever the
// canvas's shape.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as THREE from 'three';
import { fitDistance, frameCamera, type Frame } from '../../renderer/viewer/framing.ts';

/** Where a sphere fitted to `frame` lands on the canvas: its top and bottom rows, its centre's row. */
function fittedRows(frame: Frame) {
  const camera = new THREE.PerspectiveCamera(35, 1, 0.1, 10_000);
  frameCamera(camera, frame);
  const sphere = new THREE.Sphere(new THREE.Vector3(0, 0, 0), 10);
  camera.position.set(0, 0, fitDistance(camera, sphere.radius, frame, 1.08));
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld();
  const row = (y: number) => ((1 - new THREE.Vector3(0, y, 0).project(camera).y) / 2) * frame.height;
  // A sphere's outline reaches past its poles' projection: its silhouette's edge, along the view's tangent.
  const d = camera.position.z;
  const edge = (sphere.radius * d) / Math.sqrt(d * d - sphere.radius * sphere.radius);
  return { top: row(edge), centre: row(0), bottom: row(-edge) };
}

test('a fitted model is centred in the band below the tool row, and stays within it', () => {
  for (const frame of [
    { width: 575, height: 610, top: 84, bottom: 0 },
    { width: 900, height: 400, top: 84, bottom: 0 },
    { width: 320, height: 700, top: 60, bottom: 40 },
  ]) {
    const rows = fittedRows(frame);
    const bandCentre = (frame.top + frame.height - frame.bottom) / 2;
    assert.ok(Math.abs(rows.centre - bandCentre) < 1, `centre at ${rows.centre}, band's ${bandCentre}`);
    assert.ok(rows.top >= frame.top && rows.bottom <= frame.height - frame.bottom, `${JSON.stringify(rows)} in ${JSON.stringify(frame)}`);
  }
});

test('without covered bands the picture is the camera\'s own, centred on the canvas', () => {
  const rows = fittedRows({ width: 600, height: 600, top: 0, bottom: 0 });
  assert.ok(Math.abs(rows.centre - 300) < 1e-6);
});
