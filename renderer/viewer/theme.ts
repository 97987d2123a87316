// The preview's colours in one place, so that a theme (dark mode) switches all of them at once: the frame
// behind the canvas and the stage's clear colour, the build plate and its grid, the size box's lines and
// labels. The model's own blue and the open edges' red say something and stay as they are.

export interface ViewerTheme {
  background: number;
  plate: number;
  gridMajor: number;
  gridMinor: number;
  sizeBox: number;
}

export const LIGHT_VIEWER_THEME: ViewerTheme = {
  background: 0xf7f8fa,
  plate: 0xe9ecef,
  gridMajor: 0x9aa3ad,
  gridMinor: 0xc4cad1,
  sizeBox: 0x4a5360,
};

/** A colour of the theme as CSS writes it. */
export function cssColor(color: number): string {
  return `#${color.toString(16).padStart(6, '0')}`;
}
