// The dimensions overlay: the model's box drawn around it, each side's length written by an edge that
// measures it. Lines are never thinner than a pixel, so a part too thin to show at this zoom (a 0.01 mm
// needle) still shows where it stands and how long it is.
import * as THREE from 'three';
import type { ParsedModel } from '../../common/models/index.ts';
import { readableLengthIn } from '../../common/readable-number.ts';
import { LIGHT_LOOK, type ViewerLook } from './look.ts';
import type { UpAxis } from './up-axis.ts';

export interface SizeLabel {
  axis: 'x' | 'y' | 'z';
  text: string;
  /** CSS pixels from the canvas's top left corner. */
  x: number;
  y: number;
}

export interface SizeBox {
  lines: THREE.Box3Helper;
  /**
   * The labels' places on a canvas of `width` × `height` CSS pixels, inside it; one behind the camera, or
   * of a side too short to see, is left out.
   */
  labels(camera: THREE.Camera, width: number, height: number, up: UpAxis, insets?: { top: number; bottom: number }): SizeLabel[];
  dispose(): void;
}

/** What each file axis measures as the model stands. */
const ROLE: Record<UpAxis, Record<'x' | 'y' | 'z', string>> = {
  z: { x: 'Width', y: 'Depth', z: 'Height' },
  y: { x: 'Width', z: 'Depth', y: 'Height' },
};

/** Pixels between a label and the edge it measures, and the steps it moves away from another label. */
const CLEARANCE = 16;
const NUDGE = 14;
/** A side shorter than this on screen gets no label: the box is a line there, and the size line says it. */
const SHORTEST_LABELLED = 12;

interface Placed extends SizeLabel {
  width: number;
}

const overlaps = (a: Placed, b: Placed) => Math.abs(a.x - b.x) < (a.width + b.width) / 2 + 4 && Math.abs(a.y - b.y) < 18;

/**
 * A box in the model's own coordinates: add its lines to the model's root, and they turn with it. Each
 * side's label goes by whichever of its four parallel edges lies furthest out on screen (an outline edge,
 * not one behind or across the model), just outside it, moved on when it would cover another label, and
 * kept inside the canvas.
 */
export function buildSizeBox(model: ParsedModel, look: Pick<ViewerLook, 'lines' | 'units'> = LIGHT_LOOK): SizeBox {
  const { min, max } = model.facts.bounds;
  const lines = new THREE.Box3Helper(new THREE.Box3(new THREE.Vector3(...min), new THREE.Vector3(...max)), look.lines);
  const centre = new THREE.Vector3((min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2);
  const axes = (['x', 'y', 'z'] as const).map((axis, a) => {
    const [b, c] = [(a + 1) % 3, (a + 2) % 3];
    // The four edges along this axis, by their midpoints: the other two coordinates at either end.
    const edges = [0, 1, 2, 3].map((corner) => {
      const point = centre.clone();
      point.setComponent(b, corner & 1 ? max[b] : min[b]);
      point.setComponent(c, corner & 2 ? max[c] : min[c]);
      return point;
    });
    return { axis, a, edges, length: readableLengthIn(max[a] - min[a], look.units) };
  });
  const onScreen = (point: THREE.Vector3, matrix: THREE.Matrix4, camera: THREE.Camera, width: number, height: number) => {
    const p = point.clone().applyMatrix4(matrix).project(camera);
    return { x: ((p.x + 1) / 2) * width, y: ((1 - p.y) / 2) * height, visible: p.z >= -1 && p.z <= 1 };
  };
  return {
    lines,
    labels(camera, width, height, up, insets = { top: 10, bottom: 10 }) {
      const parent = lines.parent ?? lines;
      parent.updateMatrixWorld();
      const middle = onScreen(centre, parent.matrixWorld, camera, width, height);
      if (!middle.visible) return [];
      const placed: Placed[] = [];
      for (const { axis, a, edges, length } of axes) {
        // In the words of the size line above the preview (width × depth × height as the model stands),
        // not the file's axis letters, which name height "Y" in a Y-up file.
        const text = `${ROLE[up][axis]} ${length}`;
        // An edge panned or zoomed out of the canvas gets no label: pinned to the border, it would
        // measure nothing in sight.
        const inside = (p: { x: number; y: number; visible: boolean }) => p.visible && p.x >= 0 && p.x <= width && p.y >= 0 && p.y <= height;
        const candidates = edges.map((edge) => ({ edge, ...onScreen(edge, parent.matrixWorld, camera, width, height) })).filter(inside);
        const outer = candidates.sort((p, q) => Math.hypot(q.x - middle.x, q.y - middle.y) - Math.hypot(p.x - middle.x, p.y - middle.y))[0];
        if (!outer) continue;
        const ends = [min[a], max[a]].map((value) => onScreen(outer.edge.clone().setComponent(a, value), parent.matrixWorld, camera, width, height));
        if (Math.hypot(ends[0].x - ends[1].x, ends[0].y - ends[1].y) < SHORTEST_LABELLED) continue;
        const away = Math.hypot(outer.x - middle.x, outer.y - middle.y) || 1;
        const [dx, dy] = [(outer.x - middle.x) / away, (outer.y - middle.y) / away];
        const label: Placed = { axis, text, x: outer.x + dx * CLEARANCE, y: outer.y + dy * CLEARANCE, width: text.length * 6.5 + 8 };
        // Kept inside the free band of the canvas first, then moved off the labels already placed: kept
        // in after being moved apart, two labels near an edge landed on each other again.
        const keepIn = () => {
          label.x = Math.min(Math.max(label.x, label.width / 2 + 4), width - label.width / 2 - 4);
          label.y = Math.min(Math.max(label.y, insets.top), height - insets.bottom);
        };
        keepIn();
        for (let step = 0; step < 8; step++) {
          const other = placed.find((p) => overlaps(p, label));
          if (!other) break;
          const before = [label.x, label.y];
          label.x += dx * NUDGE;
          label.y += dy * NUDGE || NUDGE;
          keepIn();
          // Held by the border: step sideways past the other label instead.
          if (Math.hypot(label.x - before[0], label.y - before[1]) < NUDGE / 2) {
            label.x = other.x + Math.sign(label.x - other.x || 1) * ((label.width + other.width) / 2 + 6);
            keepIn();
          }
        }
        placed.push(label);
      }
      return placed.map(({ axis, text, x, y }) => ({ axis, text, x, y }));
    },
    dispose() {
      lines.dispose();
    },
  };
}
