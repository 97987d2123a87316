import type { Page } from 'playwright-core';

/** The Quote view: what to ship (models or a parcel) and where, then the methods offered, sortable and chosen. */
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
    modelLines: page.getByTestId('model-line'),
    /** The ID of the model on the first line. */
    modelLineId: () => page.getByTestId('model-line').locator('strong').getAttribute('data-model-id'),
    modelNotFound: page.getByTestId('model-not-found'),
    /** Waits until the model field offers this many suggestions for what is typed. */
    suggests: (count: number) => page.waitForFunction((count) => document.querySelectorAll('#model-suggestions option').length === count, count),
    submit: page.getByTestId('get-quote'),
    result: page.getByTestId('quote-result'),
    stale: page.getByTestId('quote-stale'),
    asOf: page.getByTestId('quote-as-of'),
    error: page.getByTestId('quote-error'),
    workOnlineFromError: () => page.getByTestId('quote-error-work-online').click(),
    seenQuotes: page.getByTestId('seen-quotes'),
    seenQuoteAsOf: page.getByTestId('seen-quote-as-of'),
    rows: page.getByTestId('method-row'),
    prices: page.getByTestId('method-price'),
    sortSpeed: page.getByTestId('sort-speed'),
    choose: page.getByTestId('choose-method'),
    fieldErrors: page.getByTestId('field-error'),
    async pickCountry(query: string) {
      await page.getByTestId('country').fill(query);
      await page.getByTestId('country-option').first().click();
    },
    /** Adds a model by (part of) its name or its ID, as typed in the model field. */
    async addModelNamed(name: string) {
      await page.getByTestId('add-model-id').fill(name);
      await page.getByTestId('add-model').click();
    },
  };
}
