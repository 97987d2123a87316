import type { Page } from 'playwright-core';

/** The Library: a project's models and folders, found, selected, moved and sent on to a quote. */
export function libraryPage(page: Page) {
  const rows = page.getByTestId('model-row');
  const row = (name: string) => rows.filter({ hasText: name });
  return {
    view: page.getByTestId('library'),
    empty: page.getByTestId('library-empty'),
    fileInput: page.getByTestId('file-input'),
    uploadFiles: page.getByTestId('upload-files'),
    table: page.getByTestId('model-table'),
    rows,
    row,
    /** The check box that selects the model of this name (or the first listed). */
    checkbox: (name?: string) => (name === undefined ? rows.first() : row(name)).locator('input[type=checkbox]'),
    /** Waits until the list shows this many models. */
    lists: (count: number, timeout?: number) =>
      page.waitForFunction((count) => document.querySelectorAll('[data-testid="model-row"]').length === count, count, timeout === undefined ? undefined : { timeout }),
    names: page.getByTestId('model-name'),
    /** Waits until the keyboard is on a model's name, or on a folder. */
    focusOn: (what: 'model' | 'folder') =>
      page.waitForFunction((testid) => document.activeElement?.getAttribute('data-testid') === testid, what === 'model' ? 'model-name' : 'folder-item').catch(async (error: Error) => {
        // Where the keyboard is instead says which step went wrong (the row never focused, or focused and lost).
        const at = await page.evaluate(() => `${document.activeElement?.outerHTML.slice(0, 200)} in the view ${document.querySelector('main')?.getAttribute('data-testid')}; rows: ${document.querySelectorAll('[data-testid="model-row"]').length}`).catch(() => 'unknown');
        throw new Error(`The keyboard never came to a ${what}: it is on ${at}`, { cause: error });
      }),
    /** Whether the keyboard is in a model's row now. */
    focusInRow: () => page.evaluate(() => document.activeElement?.closest('[data-testid="model-row"]') !== null),
    /** What the keyboard is on now: the text of its model or folder, or else the tag name of what has it. */
    focused: () =>
      page.evaluate(() => (document.activeElement as HTMLElement | null)?.closest('[data-model-id], [data-folder-id]')?.textContent?.trim() ?? document.activeElement?.tagName),
    /** Opens the model of this name (or the first listed) on its page. */
    open: (name?: string) => (name === undefined ? page.getByTestId('model-name').first() : page.getByTestId('model-name').filter({ hasText: name })).click(),
    count: page.getByTestId('library-count'),
    more: page.getByTestId('library-more'),
    sortBy: (key: 'name' | 'date' | 'size') => page.getByTestId(`sort-${key}`),
    search: page.getByTestId('library-search'),
    thumbs: page.getByTestId('model-thumb'),
    thumbnailImages: page.getByTestId('model-thumb').locator('img'),
    unreadableThumb: page.getByTestId('unreadable-thumb'),
    /** Waits until this many thumbnails show their picture. */
    thumbnailPictures: (count: number, timeout = 30_000) =>
      page.waitForFunction((count) => document.querySelectorAll('[data-testid="model-thumb"] img').length === count, count, { timeout }),
    /** Waits until a thumbnail is drawn. */
    thumbnailDrawn: (timeout = 30_000) => page.waitForSelector('[data-testid="model-thumb"][data-drawn="yes"]', { timeout }),
    /** Waits until the (first) thumbnail's picture is no longer this one: drawn again. */
    thumbnailRedrawn: (before: string | null, timeout = 30_000) =>
      page.waitForFunction((before) => document.querySelector('[data-testid="model-thumb"] img')?.getAttribute('src') !== before, before, { timeout }),
    /** Waits until this many thumbnails are drawn (pictures of the models, from the files or the service's copies). */
    thumbnailsDrawn: (count: number, timeout = 30_000) =>
      page.waitForFunction((count) => document.querySelectorAll('[data-testid="model-thumb"][data-drawn="yes"]').length === count, count, { timeout }),
    newFolder: page.getByTestId('new-folder'),
    folderName: page.getByTestId('folder-name'),
    saveFolder: page.getByTestId('save-folder'),
    folders: page.getByTestId('folder-item'),
    unfiled: page.getByTestId('unfiled'),
    selectionBar: page.getByTestId('selection-bar'),
    selectionBusy: page.getByTestId('selection-busy'),
    clearSelection: page.getByTestId('clear-selection'),
    selectEntire: () => page.getByTestId('select-entire').click(),
    quoteSelected: page.getByTestId('quote-selected'),
    moveSelected: page.getByTestId('move-selected'),
    /** The "Move to…" menu's choices, "Move to…" itself first. */
    moveChoices: page.getByTestId('move-selected').locator('option'),
    moved: page.getByTestId('library-moved'),
    stopped: page.getByTestId('library-stopped'),
    actionError: page.getByTestId('library-action-error'),
    noAccess: page.getByTestId('library-no-access'),
    chooseOtherProject: () => page.getByTestId('choose-other-project').click(),
    /** Offline: the list could not be had from the service, or is shown as it was last listed. */
    unlisted: page.getByTestId('library-unlisted'),
    asOf: page.getByTestId('library-as-of'),
    error: page.getByTestId('library-error'),
    /** Drops files onto the library as a file manager does, each given as its name and bytes (base64). */
    dropFiles: (files: { name: string; base64: string }[]) =>
      page.evaluate((files) => {
        const transfer = new DataTransfer();
        for (const file of files) transfer.items.add(new File([Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0))], file.name));
        const target = document.querySelector('[data-testid="library"]') as HTMLElement;
        target.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true }));
        target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }, files),
  };
}
