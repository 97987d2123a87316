import type { Page } from 'playwright-core';

/** The order form: recipient, models, shipping (a method chosen from a quote, or a rule), then Save or Place. */
export function orderForm(page: Page) {
  const view = page.getByTestId('order-form');
  const field = (name: string) => view.getByTestId(name);
  const methodRows = page.getByTestId('method-row');
  return {
    view,
    field,
    /** Waits until the form's field holds this value (a draft loads into the form a moment after it opens). */
    holds: (name: string, value: string) =>
      page.waitForFunction(([name, value]) => (document.querySelector(`[data-testid="${name}"]`) as HTMLInputElement | null)?.value === value, [name, value] as const),
    /** The field the keyboard is in, by its test id. */
    focusedField: () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid),
    /** Waits until the keyboard is in this field. */
    focusIn: (name: string) => page.waitForFunction((name) => (document.activeElement as HTMLElement | null)?.dataset.testid === name, name),
    reference: page.getByTestId('order-reference'),
    restored: page.getByTestId('order-restored'),
    addressBook: page.getByTestId('address-book'),
    loadMethods: page.getByTestId('load-methods'),
    methods: page.getByTestId('methods'),
    methodRows,
    /** The row of the method chosen, with its price. */
    chosenRow: view.getByTestId('method-row').filter({ has: page.getByTestId('chosen-method') }),
    chosenMark: view.getByTestId('chosen-method'),
    /** The chosen method's price as its row in the list of methods says it. */
    chosenPriceInList: view.getByTestId('method-row').filter({ has: page.getByTestId('chosen-method') }).getByTestId('method-price'),
    chooseMethod: page.getByTestId('choose-method'),
    chosenPrice: page.getByTestId('chosen-price'),
    chosenWindow: page.getByTestId('chosen-window'),
    chosenSummary: page.getByTestId('chosen-summary'),
    shippingHint: page.getByTestId('shipping-hint'),
    saveDraft: page.getByTestId('save-draft'),
    saved: page.getByTestId('draft-saved'),
    /** what went wrong saving or placing, when it is not one field's (a save refused over a newer version) */
    error: page.getByTestId('order-error'),
    discardChanges: () => page.getByTestId('discard-changes').click(),
    place: page.getByTestId('place-order'),
    problem: page.getByTestId('draft-problem'),
    fieldErrors: page.getByTestId('field-error'),
    fieldWarnings: view.getByTestId('field-warning'),
    addModelId: page.getByTestId('add-model-id'),
    addModel: page.getByTestId('add-model'),
    modelNotFound: page.getByTestId('model-not-found'),
    modelLines: page.getByTestId('model-line'),
    lineUnreadable: page.getByTestId('line-unreadable'),
    removeModelLine: (index: number) => page.getByTestId('model-line').nth(index).getByRole('button', { name: 'Remove' }).click(),
    rule: page.getByTestId('shipping-rule'),
    ceiling: page.getByTestId('rule-ceiling'),
    ruleOutcome: page.getByTestId('rule-outcome'),
    /** A rule that names its method by carrier and method, as "DHL parcel". */
    async ruleByMethod(carrier: string, method: string) {
      await page.getByTestId('shipping-rule').selectOption('code');
      await page.getByTestId('shipping-rule-carrier').fill(carrier);
      await page.getByTestId('shipping-rule-method').fill(method);
    },
    quoteAsOf: page.getByTestId('quote-as-of'),
    formProblems: page.getByTestId('form-problems'),
    /** A complete order: recipient, one model, the first shipping method offered. */
    async fillWithModel(values: Record<string, string>, modelId: string) {
      await this.fillRecipient(values);
      await this.addModelById(modelId);
      await page.getByTestId('load-methods').click();
      await page.getByTestId('choose-method').first().click();
    },
    /** Adds a model by its ID or (part of) its name, as typed in the model field. */
    async addModelById(modelId: string) {
      await page.getByTestId('add-model-id').fill(modelId);
      await page.getByTestId('add-model').click();
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
