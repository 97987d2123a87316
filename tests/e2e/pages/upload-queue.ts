import type { Page } from 'playwright-core';

/** The upload queue under the library: each file's progress, what was left out and why, retries. */
export function uploadQueue(page: Page) {
  const items = page.getByTestId('upload-item');
  return {
    view: page.getByTestId('upload-queue'),
    items,
    errors: page.getByTestId('upload-errors'),
    notice: page.getByTestId('upload-notice'),
    dismissNotice: () => page.getByTestId('dismiss-upload-notice').click(),
    /** Waits until the notice no longer says this (it is news only until the uploads are through). */
    noticeDropped: (text: string) => page.waitForFunction((text) => !document.querySelector('[data-testid="upload-notice"]')?.textContent?.includes(text), text),
    /** Waits until this many files were found already in the project (by their content), not uploaded again. */
    alreadyInProject: (count: number, timeout = 15_000) =>
      page.waitForFunction((count) => [...document.querySelectorAll('[data-testid="upload-item"]')].filter((e) => e.textContent?.includes('Already in the project')).length === count, count, { timeout }),
    clearFinished: () => page.getByTestId('clear-finished').click(),
    toggleFinished: page.getByTestId('toggle-finished'),
    retrying: page.getByTestId('upload-retrying'),
    retryNow: page.getByTestId('retry-now'),
  };
}
