// The dimensions overlay: the model's box drawn around it, each side's length written by the edge that
// measures it. Lines are never thinner than a pixel, so a part too thin to show at this zoom (a 0.01 mm
// needle) still shows where it stands and how long it is.
import * as THREE from 'three';
import type { ParsedModel } from '../../common/models/index.ts';
import { readableLength } from '../../common/readable-number.ts';

export interface SizeLabel {
  axis: 'x' | 'y' | 'z';
  text: string;
  /** CSS pixels from the canvas's top left corner. */
  x: number;
  y: number;
}

export interface SizeBox {
  lines: THREE.Box3Helper;
  /** The labels' places on a canvas of `width` × `height` CSS pixels; one behind the camera is left out. */
  labels(camera: THREE.Camera, width: number, height: number): SizeLabel[];
  dispose(): void;
}

const LINE_COLOR = 0x4a5360;

/** A box in the model's own coordinates: add its lines to the model's root, and they turn with it. */
export function buildSizeBox(model: ParsedModel): SizeBox {
  const { min, max } = model.facts.bounds;
  const lines = new THREE.Box3Helper(new THREE.Box3(new THREE.Vector3(...min), new THREE.Vector3(...max)), LINE_COLOR);
  const middle = (axis: number) => (min[axis] + max[axis]) / 2;
  // Along the bottom edges and up one corner, where a drawing puts its dimensions.
  const anchors: { axis: SizeLabel['axis']; at: THREE.Vector3; length: number }[] = [
    { axis: 'x', at: new THREE.Vector3(middle(0), min[1], min[2]), length: max[0] - min[0] },
    { axis: 'y', at: new THREE.Vector3(max[0], middle(1), min[2]), length: max[1] - min[1] },
    { axis: 'z', at: new THREE.Vector3(max[0], min[1], middle(2)), length: max[2] - min[2] },
  ];
  const point = new THREE.Vector3();
  return {
    lines,
    labels(camera, width, height) {
      const parent = lines.parent ?? lines;
      parent.updateMatrixWorld();
      const placed: SizeLabel[] = [];
      for (const { axis, at, length } of anchors) {
        point.copy(at).applyMatrix4(parent.matrixWorld).project(camera);
        if (point.z < -1 || point.z > 1) continue;
        const x = ((point.x + 1) / 2) * width, y = ((1 - point.y) / 2) * height;
        // Sides too short to see apart (a needle's) would write over each other: the first is kept.
        if (placed.some((other) => Math.abs(other.x - x) < 70 && Math.abs(other.y - y) < 18)) continue;
        placed.push({ axis, text: `${axis.toUpperCase()} ${readableLength(length)} mm`, x, y });
      }
      return placed;
    },
    dispose() {
      lines.dispose();
    },
  };
}
