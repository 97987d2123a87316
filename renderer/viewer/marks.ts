// Stages of opening a model, as performance marks on the page's timeline (`preview:<stage>`): the preview
// bench reads them for its breakdown, and the browser's performance panel shows them. A worker's own
// timeline starts when the worker does, so its marks travel as wall-clock times and are placed here.

/** Wall-clock milliseconds of each stage a worker went through. */
export type StageMarks = Record<string, number>;

/** Now, on the wall clock (comparable between the page and its workers). */
export const wallClock = (): number => performance.timeOrigin + performance.now();

/** Marks a worker's stages on the page's timeline. */
export function placeMarks(marks: StageMarks | undefined): void {
  for (const [stage, at] of Object.entries(marks ?? {})) performance.mark(`preview:${stage}`, { startTime: Math.max(0, at - performance.timeOrigin) });
}
