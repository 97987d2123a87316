import type { Page } from 'playwright-core';

export function workspace(page: Page) {
  return {
    nav: (view: 'overview' | 'library' | 'quote' | 'orders' | 'batch' | 'settings') => page.getByTestId(`nav-${view}`).click(),
    offlineBanner: page.getByTestId('offline-banner'),
    workOnline: page.getByTestId('work-online'),
    outboxCount: page.getByTestId('outbox-count'),
    toast: page.getByTestId('outbox-toast'),
  };
}

export function quotePage(page: Page) {
  return {
    view: page.getByTestId('quote'),
    country: page.getByTestId('country'),
    countryOptions: page.getByTestId('country-option'),
    modeModels: page.getByTestId('mode-models'),
    modePackage: page.getByTestId('mode-package'),
    weight: page.getByTestId('weight'),
    length: page.getByTestId('length'),
    width: page.getByTestId('width'),
    height: page.getByTestId('height'),
    dimensionsError: page.getByTestId('dimensions-error'),
    addModelId: page.getByTestId('add-model-id'),
    addModel: page.getByTestId('add-model'),
    submit: page.getByTestId('get-quote'),
    result: page.getByTestId('quote-result'),
    rows: page.getByTestId('method-row'),
    prices: page.getByTestId('method-price'),
    sortSpeed: page.getByTestId('sort-speed'),
    choose: page.getByTestId('choose-method'),
    fieldErrors: page.getByTestId('field-error'),
    async pickCountry(query: string) {
      await page.getByTestId('country').fill(query);
      await page.getByTestId('country-option').first().click();
    },
  };
}

export function orderForm(page: Page) {
  const field = (name: string) => page.getByTestId('order-form').getByTestId(name);
  return {
    view: page.getByTestId('order-form'),
    field,
    reference: page.getByTestId('order-reference'),
    loadMethods: page.getByTestId('load-methods'),
    chooseMethod: page.getByTestId('choose-method'),
    saveDraft: page.getByTestId('save-draft'),
    saved: page.getByTestId('draft-saved'),
    place: page.getByTestId('place-order'),
    problem: page.getByTestId('draft-problem'),
    fieldErrors: page.getByTestId('field-error'),
    addModelId: page.getByTestId('add-model-id'),
    addModel: page.getByTestId('add-model'),
    modelLines: page.getByTestId('model-line'),
    rule: page.getByTestId('shipping-rule'),
    ceiling: page.getByTestId('rule-ceiling'),
    ruleOutcome: page.getByTestId('rule-outcome'),
    quoteAsOf: page.getByTestId('quote-as-of'),
    formProblems: page.getByTestId('form-problems'),
    /** A complete order: recipient, one model, the first shipping method offered. */
    async fillWithModel(values: Record<string, string>, modelId: string) {
      await this.fillRecipient(values);
      await page.getByTestId('add-model-id').fill(modelId);
      await page.getByTestId('add-model').click();
      await page.getByTestId('load-methods').click();
      await page.getByTestId('choose-method').first().click();
    },
    async fillRecipient(values: Record<string, string>) {
      for (const [name, value] of Object.entries(values)) {
        if (name === 'country') {
          await field('country').fill(value);
          await page.getByTestId('country-option').first().click();
        } else await field(name).fill(value);
      }
    },
  };
}

export function ordersPage(page: Page) {
  return {
    view: page.getByTestId('orders'),
    table: page.getByTestId('orders-table'),
    rows: page.getByTestId('order-row'),
    row: (state: string) => page.locator(`[data-testid="order-row"][data-state="${state}"]`),
    /** the row of the order with this reference (drawn: scrolled to, or near the top) */
    byReference: (reference: string) => page.getByTestId('order-row').filter({ has: page.getByTestId('open-order').getByText(reference, { exact: true }) }),
    newOrder: page.getByTestId('new-order'),
    empty: page.getByTestId('orders-empty'),
    placedNotice: page.getByTestId('placed-notice'),
    search: page.getByTestId('orders-search'),
    tab: (id: 'all' | 'draft' | 'outbox' | 'attention' | 'placed') => page.getByTestId(`filter-${id}`),
    sortBy: (key: string) => page.getByTestId(`sort-${key}`),
    bulkBar: page.getByTestId('bulk-bar'),
    /** Opens the order's page from its row (its reference is a link). */
    async open(row: ReturnType<Page['getByTestId']>) {
      await row.getByTestId('open-order').click();
      await page.getByTestId('order-page').waitFor();
    },
    /** The row shown at this place of the list, 0 first (elements are reused as the table scrolls: their order is not the list's). */
    rowAt: (index: number) => page.locator(`[data-testid="order-row"][aria-rowindex="${index + 2}"]`),
    /** The references of the rows drawn, top to bottom. */
    references: () =>
      page.getByTestId('order-row').evaluateAll((rows) =>
        rows
          .map((row) => ({ at: Number(row.getAttribute('aria-rowindex')), reference: row.querySelector('[data-testid="open-order"]')?.textContent ?? '' }))
          .sort((a, b) => a.at - b.at)
          .map((row) => row.reference),
      ),
  };
}

export function orderPage(page: Page) {
  return {
    view: page.getByTestId('order-page'),
    back: page.getByTestId('back-to-orders'),
    timeline: page.getByTestId('order-timeline'),
    steps: page.getByTestId('timeline-step'),
    problem: page.getByTestId('order-problem'),
    serviceOrderId: page.getByTestId('service-order-id'),
    reference: page.getByTestId('order-reference'),
    badge: page.getByTestId('order-page').getByTestId('state-badge'),
    action: (id: string) => page.getByTestId('order-actions').getByTestId(id),
  };
}
