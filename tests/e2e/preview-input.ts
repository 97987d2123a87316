// What a user does with a preview while a large model opens, for the e2e tests and the preview bench alike:
// typing into the page's rename field until the model is on screen, and turning the model by dragging.
// Also the switch that makes a page draw its preview itself, as in a browser without OffscreenCanvas.
import type { Locator, Page } from 'playwright-core';

/** The page forgets OffscreenCanvas's canvas transfer (as a browser without it), from its next load on. */
export async function withoutOffscreenCanvas(page: Page): Promise<void> {
  await page.addInitScript(() => {
    delete (HTMLCanvasElement.prototype as Partial<HTMLCanvasElement>).transferControlToOffscreen;
  });
  await page.reload();
}

/**
 * Records from now on how long each key took from the moment it was pressed to a frame after the page
 * handled it (a frame callback, then a task: the frame with the key's effect is on screen by then).
 */
export async function watchKeyLatency(page: Page): Promise<void> {
  await page.evaluate(() => {
    const latencies: number[] = [];
    (window as unknown as { keyLatencies: number[] }).keyLatencies = latencies;
    document.addEventListener(
      'keydown',
      (event) => {
        const pressed = event.timeStamp;
        requestAnimationFrame(() => setTimeout(() => latencies.push(performance.now() - pressed)));
      },
      true,
    );
  });
}

export const keyLatencies = (page: Page) => page.evaluate(() => (window as unknown as { keyLatencies: number[] }).keyLatencies);

/**
 * Types into `field`, a character at a time, until `done` holds (checked between keys) and at least
 * `least` characters are typed; a field about to reach its maxlength is emptied (Ctrl+A, Backspace) and
 * typed into again, as it is first with `clearFirst`. Returns what the field should hold.
 */
export async function typeUntil(page: Page, field: Locator, done: () => Promise<boolean>, least = 8, { clearFirst = false } = {}): Promise<string> {
  const letters = 'the quick brown fox jumps over the lazy dog ';
  const room = Math.min(80, Math.max(10, ((await field.getAttribute('maxlength').then(Number)) || 80) - 10));
  let typed = '';
  let keys = 0;
  // The rename field selects the name once it is shown: typed before that, the first keys would be selected
  // and replaced by the next. (A field typed into again is emptied first instead.)
  if (!clearFirst) await field.evaluate((input: HTMLInputElement) => new Promise<void>((resolve) => {
    const selected = () => (input.value.length > 0 && input.selectionStart === 0 && input.selectionEnd === input.value.length ? resolve() : requestAnimationFrame(selected));
    selected();
  }));
  await field.focus();
  if (clearFirst) {
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
  }
  while (keys < least || !(await done())) {
    if (typed.length >= room) {
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Backspace');
      typed = '';
    }
    const letter = letters[keys % letters.length];
    await page.keyboard.type(letter);
    typed += letter;
    if (++keys > 5000) break;
  }
  return typed;
}

/** Drags across the preview for `ms`, turning the model, as a user looking it over does. */
export async function turnPreview(page: Page, canvas: Locator, ms: number): Promise<void> {
  const box = await canvas.boundingBox();
  if (!box) throw new Error('The preview is not on screen');
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  const started = Date.now();
  for (let step = 1; Date.now() - started < ms; step++) {
    await page.mouse.move(x + 160 * Math.sin(step / 12), y + 50 * Math.sin(step / 19));
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  await page.mouse.up();
}

/** Frames the preview has drawn so far (its stage counts them, in a worker or on the page). */
export const framesDrawn = (page: Page) => page.evaluate(() => Number(document.querySelector('[data-testid="viewer"]')?.getAttribute('data-frames') ?? 0));
