// The page's theme and size unit as the 3D scene takes them: plain values (CSS colours, a unit), so they
// reach the scene wherever it is drawn, on the page or in a worker. The model's own blue and the open
// edges' red say something and stay as they are.
import type { LengthUnit } from '../../common/readable-number.ts';

export interface ViewerLook {
  /** the frame behind the canvas and the stage's clear colour */
  background: string;
  plate: string;
  grid: string;
  gridMinor: string;
  /** the size box's lines */
  lines: string;
  /** the unit the size box's labels are written in */
  units: LengthUnit;
}

export const LIGHT_LOOK: ViewerLook = {
  background: '#f7f8fa',
  plate: '#e9ecef',
  grid: '#9aa3ad',
  gridMinor: '#c4cad1',
  lines: '#4a5360',
  units: 'mm',
};

/** The viewer's look as the page's theme sets it (styles.css, `--viewer-*`), read at `element`. */
export function pageLook(element: HTMLElement, units: LengthUnit): ViewerLook {
  const css = getComputedStyle(element);
  const colour = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: colour('--viewer-bg', LIGHT_LOOK.background),
    plate: colour('--viewer-plate', LIGHT_LOOK.plate),
    grid: colour('--viewer-grid', LIGHT_LOOK.grid),
    gridMinor: colour('--viewer-grid-minor', LIGHT_LOOK.gridMinor),
    lines: colour('--viewer-lines', LIGHT_LOOK.lines),
    units,
  };
}
