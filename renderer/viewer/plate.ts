// The build plate under the model: a printer's 256 mm plate with a 10 mm grid, grown for a larger model.
// A model too small to read against 10 mm cells (a 6 mm part, or one drawn in metres) gets a smaller
// plate with cells of 1 mm, 0.1 mm, …, and one of metres cells of 100 mm or more, so that the grid still
// says how big it is. Sizes are in scene units (mm, unless the model is drawn scaled down).
import * as THREE from 'three';
import { LIGHT_LOOK, type ViewerLook } from './look.ts';

export const PLATE_MM = 256;
const CELL_MM = 10;
/** Cells across a plate at the least, for a model that gets finer ones. */
const FINE_CELLS = 40;

export interface Plate {
  group: THREE.Group;
  /** Side of one grid cell, in scene units. */
  cell: number;
  dispose(): void;
}

/**
 * The grid cell for a model whose largest side is `largest`: the largest power of ten it spans at least
 * five of, at most 10 (a printer's grid) up to a metre, and a tenth of the model's power beyond.
 */
export function cellFor(largest: number): number {
  if (!(largest > 0)) return CELL_MM;
  if (largest > 100 * CELL_MM) return 10 ** Math.floor(Math.log10(largest / 10));
  return Math.min(CELL_MM, 10 ** Math.floor(Math.log10(largest / 5)));
}

/** A plate for a footprint of `width` × `depth` whose largest side (height included) is `largest`. */
export function buildPlate(width: number, depth: number, largest: number, look: Pick<ViewerLook, 'plate' | 'grid' | 'gridMinor'> = LIGHT_LOOK): Plate {
  const cell = cellFor(largest);
  const least = cell === CELL_MM ? PLATE_MM : cell * FINE_CELLS;
  const cells = Math.ceil(Math.max(least, width * 1.5, depth * 1.5) / cell);
  const side = cells * cell;
  const group = new THREE.Group();
  const base = new THREE.Mesh(new THREE.PlaneGeometry(side, side), new THREE.MeshStandardMaterial({ color: look.plate, roughness: 1 }));
  base.rotation.x = -Math.PI / 2;
  // Just under the grid lines, whatever the scale.
  base.position.y = -cell / 200;
  const grid = new THREE.GridHelper(side, cells, look.grid, look.gridMinor);
  // A hair under the plate's top, so a model's face lying on it hides the lines rather than sharing their depth.
  grid.position.y = -cell / 2000;
  group.add(base, grid);
  return {
    group,
    cell,
    dispose() {
      base.geometry.dispose();
      base.material.dispose();
      grid.geometry.dispose();
      (grid.material as THREE.Material).dispose();
    },
  };
}
