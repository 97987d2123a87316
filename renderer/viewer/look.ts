// The page's theme and size unit as the 3D scene takes them: plain values (CSS colours, a unit), so they
// reach the scene wherever it is drawn.
import type { LengthUnit } from '../../common/readable-number.ts';
import type { StageLook } from './stage.ts';

/** The viewer's colours as the page's theme sets them (styles.css, `--viewer-*`), read at `element`. */
export function pageLook(element: HTMLElement, units: LengthUnit): StageLook {
  const css = getComputedStyle(element);
  const colour = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    colours: {
      background: colour('--viewer-bg', '#f7f8fa'),
      plate: colour('--viewer-plate', '#e9ecef'),
      grid: colour('--viewer-grid', '#9aa3ad'),
      gridMinor: colour('--viewer-grid-minor', '#c4cad1'),
      lines: colour('--viewer-lines', '#4a5360'),
    },
    units,
  };
}
