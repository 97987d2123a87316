import type { Locator, Page } from 'playwright-core';

/** The Orders view: the table of every order with its tabs, filters, search, sort, selection and bulk actions. */
export function ordersPage(page: Page) {
  const rows = page.getByTestId('order-row');
  return {
    view: page.getByTestId('orders'),
    table: page.getByTestId('orders-table'),
    /** Whether the keyboard is on the table now. */
    tableFocused: () => page.getByTestId('orders-table').evaluate((table) => table === document.activeElement),
    rows,
    row: (state: string) => page.locator(`[data-testid="order-row"][data-state="${state}"]`),
    /** Waits until this many rows are drawn (of this state, if given). */
    listsRows: (count: number, state?: string) =>
      page.waitForFunction(([count, selector]) => document.querySelectorAll(selector).length === count, [count, state ? `[data-testid="order-row"][data-state="${state}"]` : '[data-testid="order-row"]'] as const),
    /** the row of the order with this reference (drawn: scrolled to, or near the top) */
    byReference: (reference: string) => rows.filter({ has: page.getByTestId('open-order').getByText(reference, { exact: true }) }),
    newOrder: page.getByTestId('new-order'),
    empty: page.getByTestId('orders-empty'),
    none: page.getByTestId('orders-none'),
    count: page.getByTestId('orders-count'),
    placedNotice: page.getByTestId('placed-notice'),
    /** An order just placed out of reach of the service: where it waits, and when it goes. */
    waitingNotice: page.getByTestId('waiting-notice'),
    search: page.getByTestId('orders-search'),
    tab: (id: 'all' | 'draft' | 'outbox' | 'attention' | 'placed') => page.getByTestId(`filter-${id}`),
    /** A filter's menu or field: the service status, batch, country, days, or the first day of a range. */
    filter: (id: 'status' | 'batch' | 'country' | 'range' | 'from') => page.getByTestId(`filter-${id}`),
    clearFilters: () => page.getByTestId('clear-filters').click(),
    sortBy: (key: string) => page.getByTestId(`sort-${key}`),
    /** A column's header cell, around its sort button. */
    column: (key: string) => page.getByTestId(`sort-${key}`).locator('..'),
    /** How a column is sorted: "ascending", "descending" or "none" (its header cell's aria-sort). */
    sortOf: (key: string) => page.getByTestId(`sort-${key}`).locator('..').getAttribute('aria-sort'),
    /** Exports what is listed as a spreadsheet; the download. */
    exportListed: () => Promise.all([page.waitForEvent('download'), page.getByTestId('orders-export').click()]).then(([file]) => file),
    bulkBar: page.getByTestId('bulk-bar'),
    selectedCount: page.getByTestId('selected-count'),
    bulk: (action: 'cancel' | 'hold' | 'release' | 'retry') => page.getByTestId(`bulk-${action}`),
    bulkOutcome: page.getByTestId('bulk-outcome'),
    /** What went wrong with an action taken from the list. */
    actionError: page.getByTestId('action-error'),
    /** Exports the selected orders as a spreadsheet; the download. */
    exportSelected: () => Promise.all([page.waitForEvent('download'), page.getByTestId('bulk-export').click()]).then(([file]) => file),
    /** Opens the order's page from its row (its reference is a link). */
    async open(row: Locator) {
      await row.getByTestId('open-order').click();
      await page.getByTestId('order-page').waitFor();
    },
    /** The row shown at this place of the list, 0 first (elements are reused as the table scrolls: their order is not the list's). */
    rowAt: (index: number) => page.locator(`[data-testid="order-row"][aria-rowindex="${index + 2}"]`),
    /** The row the keyboard is on. */
    async activeRow() {
      return page.locator(`#${await page.getByTestId('orders-table').getAttribute('aria-activedescendant')}`);
    },
    /** The references of the rows drawn, top to bottom. */
    references: () =>
      rows.evaluateAll((rows) =>
        rows
          .map((row) => ({ at: Number(row.getAttribute('aria-rowindex')), reference: row.querySelector('[data-testid="open-order"]')?.textContent ?? '' }))
          .sort((a, b) => a.at - b.at)
          .map((row) => row.reference),
      ),
  };
}

/** What a row of the table says and offers. */
export function orderRow(row: Locator) {
  return {
    reference: row.getByTestId('open-order'),
    recipient: row.getByTestId('row-recipient'),
    price: row.getByTestId('row-price'),
    quoteAge: row.getByTestId('quote-age'),
    badge: row.getByTestId('state-badge'),
  };
}
