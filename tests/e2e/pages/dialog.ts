import type { Page } from 'playwright-core';

/** The question asked before something that cannot be taken back (or that sends files away). */
export function confirmDialog(page: Page) {
  return {
    view: page.getByTestId('confirm-dialog'),
    yesButton: page.getByTestId('confirm-yes'),
    yes: () => page.getByTestId('confirm-yes').click(),
    no: () => page.getByTestId('confirm-no').click(),
  };
}
