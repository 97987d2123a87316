import type { Page } from 'playwright-core';

/** A model's page: its title and actions, its service record and measured facts, and the 3D preview with its tools. */
export function modelDetail(page: Page) {
  const viewer = page.getByTestId('viewer');
  return {
    view: page.getByTestId('model-detail'),
    title: page.getByTestId('model-detail').locator('h1'),
    backToLibrary: page.getByRole('button', { name: '← Library' }),
    serviceRecord: page.getByTestId('service-record'),
    localFacts: page.getByTestId('local-facts'),
    facts: page.getByTestId('model-facts'),
    factDimensions: page.getByTestId('fact-dimensions'),
    unreadable: page.getByTestId('unreadable'),
    topologyPending: page.getByTestId('topology-pending'),
    specViolations: page.getByTestId('spec-violations'),
    specViolation: page.getByTestId('spec-violation'),
    /** Opens the list of each rule the file breaks, and where. */
    showSpecViolations: () => page.getByTestId('spec-violations').locator('summary').click(),
    /** The rules broken, by their names in the specification's terms. */
    specRules: () => page.getByTestId('spec-violation').evaluateAll((items) => items.map((item) => item.getAttribute('data-rule'))),
    quote: page.getByTestId('quote-model'),
    order: () => page.getByRole('button', { name: 'Order', exact: true }).click(),
    rename: page.getByTestId('rename-model'),
    nameField: page.getByTestId('model-name-field'),
    async renameTo(name: string) {
      await page.getByTestId('rename-model').click();
      await page.getByTestId('model-name-field').fill(name);
      await page.getByTestId('save-model-name').click();
    },
    folder: page.getByTestId('model-folder'),
    delete: page.getByTestId('delete-model'),
    actionError: page.getByTestId('model-action-error'),
    // The preview.
    viewer,
    canvas: page.getByTestId('viewer-canvas'),
    /** Whether the keyboard is on the preview now. */
    canvasFocused: () => page.getByTestId('viewer-canvas').evaluate((canvas) => canvas === document.activeElement),
    /** Waits until the preview has its model on screen. */
    previewReady: (timeout?: number) => page.locator('[data-testid="viewer"][data-state="ready"]').waitFor(timeout === undefined ? undefined : { timeout }),
    /** Whether the preview has its model on screen now. */
    isPreviewReady: () => page.locator('[data-testid="viewer"][data-state="ready"]').count().then((n) => n > 0),
    /** Whether the preview has its model on screen now with every triangle in (the note of the simplified copy loading gone). */
    isFullyOpen: () =>
      page.evaluate(() => Boolean(document.querySelector('[data-testid="viewer"][data-state="ready"]')) && !document.querySelector('[data-testid="viewer-loading-detail"]')),
    /** "host" when the preview drew the host's first picture before the file's own reading, else null. */
    firstPictureFrom: () => viewer.getAttribute('data-first-picture'),
    /** When, after the model's record, its first picture and its file reached the page (ms; undefined: never). */
    arrivals: () =>
      page.evaluate(() => {
        const at = (name: string) => performance.getEntriesByName(name).at(-1)?.startTime;
        return { picture: at('preview:picture'), file: at('preview:file') };
      }),
    /** Where the preview draws: "worker" or "page". */
    drawnIn: () => viewer.getAttribute('data-drawn-in'),
    /** Geometries the preview's stage holds on the GPU, as of its last frame (null before one). */
    gpuGeometries: () => viewer.getAttribute('data-gpu-geometries').then((n) => (n === null ? null : Number(n))),
    /** Waits until the stage's last frame held this many geometries on the GPU. */
    gpuGeometriesAre: (count: number, timeout = 10_000) =>
      page.waitForFunction((count) => document.querySelector('[data-testid="viewer"]')?.getAttribute('data-gpu-geometries') === String(count), count, { timeout }),
    dimensions: page.getByTestId('viewer-dimensions'),
    /** Waits until the size over the preview says this. */
    dimensionsRead: (size: string) => page.waitForFunction((size) => document.querySelector('[data-testid="viewer-dimensions"]')?.textContent?.includes(size), size),
    error: page.getByTestId('viewer-error'),
    checking: page.getByTestId('viewer-checking'),
    simplified: page.getByTestId('viewer-simplified'),
    drawEveryTriangle: () => page.getByTestId('viewer-every-triangle').click(),
    fit: () => page.getByTestId('viewer-fit').click(),
    /** Fit to view, in the tool row over the preview (there once the model is measured). */
    fitButton: page.getByTestId('viewer-fit'),
    wireframe: page.getByTestId('viewer-wireframe'),
    openEdges: page.getByTestId('viewer-open-edges'),
    /** The open edges switch's label, with their count. */
    openEdgesLabel: page.getByTestId('viewer-open-edges').locator('..'),
    up: page.getByTestId('viewer-up'),
    grid: page.getByTestId('viewer-grid'),
    sizeBox: page.getByTestId('viewer-size-box'),
    sizeSide: (axis: 'x' | 'y' | 'z') => page.getByTestId(`viewer-size-${axis}`),
  };
}
