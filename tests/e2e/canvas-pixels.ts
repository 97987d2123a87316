// Reads back what the preview canvas shows: the viewer keeps its drawing buffer (preserveDrawingBuffer), so
// a copy into a 2D canvas is what is on screen.
import type { Locator } from 'playwright-core';

export interface PixelSample {
  /** Distinct colours among the sampled pixels: a shaded model shows dozens, an empty plate a few. */
  distinct: number;
  /** Pixels that are clearly warm (red well above blue): never the default blue model or the grey plate. */
  warm: number;
  /** Pixels near the open-edge highlight's red (0xe0262b). */
  highlight: number;
  /** Grey pixels darker than the plate and its grid: the size box's lines (antialiased to half their colour). */
  dark: number;
  /** Pixels of the default model's blue, shaded or not: never the grey plate. */
  blue: number;
  /** Distinct shades of that blue among the sampled pixels: a lit cube shows a shade a face. */
  blueShades: number;
  total: number;
  /** How light the top left corner is (0–255): the scene's background, off the plate. */
  corner: number;
}

export function samplePixels(canvas: Locator): Promise<PixelSample> {
  return canvas.evaluate((element: HTMLCanvasElement) => {
    const probe = document.createElement('canvas');
    probe.width = element.width;
    probe.height = element.height;
    const context = probe.getContext('2d');
    if (!context) return { distinct: 0, warm: 0, highlight: 0, dark: 0, blue: 0, blueShades: 0, total: 0, corner: -1 };
    context.drawImage(element, 0, 0);
    const { data } = context.getImageData(0, 0, probe.width, probe.height);
    const colours = new Set<number>();
    const blues = new Set<number>();
    let warm = 0, highlight = 0, dark = 0, blue = 0, total = 0;
    // Every pixel is classed (a highlighted edge is a line one pixel wide); colours are counted on every
    // 97th, a prime stride that does not line up with the grid.
    for (let i = 0, n = 0; i < data.length; i += 4, n++) {
      const r = data[i], g = data[i + 1], b = data[i + 2];
      if (n % 97 === 0) colours.add((r << 16) | (g << 8) | b);
      if (n % 97 === 0 && b > r + 60) blues.add((r << 16) | (g << 8) | b);
      if (r > b + 60) warm++;
      if (r > 150 && g < 90 && b < 90) highlight++;
      if (Math.max(r, g, b) < 170 && Math.max(r, g, b) - Math.min(r, g, b) < 40) dark++;
      if (b > r + 60) blue++;
      total++;
    }
    const corner = Math.round((data[0] + data[1] + data[2]) / 3);
    return { distinct: colours.size, warm, highlight, dark, blue, blueShades: blues.size, total, corner };
  });
}

/**
 * Whether two samples show the model covering the same share of the canvas, within `tolerance` of it. A share,
 * not a count: without a GPU a view's first frame is drawn with a quarter of the pixels of the sharp one.
 */
export function sameCover(a: PixelSample, b: PixelSample, tolerance = 0.02): boolean {
  const share = (s: PixelSample) => s.blue / Math.max(1, s.total);
  return Math.abs(share(a) - share(b)) < share(b) * tolerance;
}

/** Samples until `wanted` holds (the viewer draws on the next frames after a change), or fails saying what it saw. */
export async function pixelsUntil(canvas: Locator, wanted: (sample: PixelSample) => boolean, what: string, timeoutMs = 10_000): Promise<PixelSample> {
  const deadline = Date.now() + timeoutMs;
  let sample = await samplePixels(canvas);
  while (!wanted(sample)) {
    if (Date.now() > deadline) throw new Error(`The preview never showed ${what}: ${JSON.stringify(sample)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    sample = await samplePixels(canvas);
  }
  return sample;
}

/**
 * The picture once it has stopped changing for `quietMs`. A view settles over a few frames as it opens: a
 * first frame with fewer pixels without a GPU, the sharp one after, and on a first preview a new framing once
 * the tool row is laid out. Without a GPU a frame can take a few hundred milliseconds: hence the long quiet.
 */
export async function settledPixels(canvas: Locator, quietMs = 1_200, timeoutMs = 15_000): Promise<PixelSample> {
  let last = await samplePixels(canvas);
  let since = Date.now();
  return pixelsUntil(canvas, (sample) => {
    if (JSON.stringify(sample) !== JSON.stringify(last)) [last, since] = [sample, Date.now()];
    return Date.now() - since >= quietMs;
  }, 'a picture at rest', timeoutMs);
}
