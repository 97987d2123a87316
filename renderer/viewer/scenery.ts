// What a stage shows around its model: the build plate with its grid, sized to the model as it stands,
// and the model's size box with its sides' lengths, both in the page's look.
import type * as THREE from 'three';
import type { ParsedModel } from '../../common/models/index.ts';
import type { ViewerLook } from './look.ts';
import { displayScale, worldSize } from './model-mesh.ts';
import { buildPlate, PLATE_MM } from './plate.ts';
import { buildSizeBox, type SizeBox, type SizeLabel } from './size-box.ts';
import type { UpAxis } from './up-axis.ts';

export type Scenery = ReturnType<typeof createScenery>;

export function createScenery(scene: THREE.Scene, look: ViewerLook) {
  let plate = buildPlate(0, 0, PLATE_MM, look);
  scene.add(plate.group);
  let sizeBox: SizeBox | null = null;
  let sizeBoxOn = true;
  /** The canvas's bands under the tool row and above the notes, where size labels would be covered. */
  let labelInsets = { top: 10, bottom: 10 };

  return {
    get look() {
      return look;
    },
    /** The page's colours and unit, for what is laid or boxed from now on. */
    setLook(next: ViewerLook) {
      look = next;
    },
    /** A plate, and a grid, the size of `model` as it stands (the plate's own size without one); the grid's cell in mm. */
    layPlate(model: ParsedModel | null, up: UpAxis): number | null {
      const [width, height, depth] = model ? worldSize(model, up) : [0, 0, 0];
      scene.remove(plate.group);
      plate.dispose();
      plate = buildPlate(width, depth, model ? Math.max(width, height, depth) : PLATE_MM, look);
      scene.add(plate.group);
      return model ? plate.cell / displayScale(model) : null;
    },
    /** Seen from below, the plate would draw its grid over the model's underside: it steps aside. */
    plateSeenFrom(camera: THREE.Camera) {
      plate.group.visible = camera.position.y >= 0;
    },
    /** The model's box with its sides' lengths, in the look's colour and unit, in `parent`, replacing the one before. */
    boxModel(model: ParsedModel, parent: THREE.Object3D | undefined) {
      this.dropSizeBox();
      sizeBox = buildSizeBox(model, look);
      sizeBox.lines.visible = sizeBoxOn;
      parent?.add(sizeBox.lines);
    },
    dropSizeBox() {
      sizeBox?.lines.removeFromParent();
      sizeBox?.dispose();
      sizeBox = null;
    },
    setSizeBox(on: boolean) {
      sizeBoxOn = on;
      if (sizeBox) sizeBox.lines.visible = on;
    },
    /** False when the bands are as they were. */
    setLabelInsets(top: number, bottom: number): boolean {
      if (top === labelInsets.top && bottom === labelInsets.bottom) return false;
      labelInsets = { top, bottom };
      return true;
    },
    /** Where the size box's labels go on a canvas of this size (null while the box is hidden). */
    labels(camera: THREE.Camera, width: number, height: number, up: UpAxis): SizeLabel[] | null {
      return sizeBox && sizeBoxOn ? sizeBox.labels(camera, width, height, up, labelInsets) : null;
    },
    dispose() {
      this.dropSizeBox();
      plate.dispose();
    },
  };
}
