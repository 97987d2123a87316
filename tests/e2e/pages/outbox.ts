import type { Page } from 'playwright-core';

/** The Outbox, a tab of Orders: what waits to be sent, and at what price as last quoted. */
export function outbox(page: Page) {
  return {
    open: () => page.getByTestId('filter-outbox').click(),
    summary: page.getByTestId('outbox-summary'),
  };
}
