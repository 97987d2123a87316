import type { Page } from 'playwright-core';

/** An order's own page: what it is, what happened to it (its timeline) and what can be done with it where it stands. */
export function orderPage(page: Page) {
  const view = page.getByTestId('order-page');
  return {
    view,
    back: page.getByTestId('back-to-orders'),
    timeline: page.getByTestId('order-timeline'),
    steps: page.getByTestId('timeline-step'),
    problem: page.getByTestId('order-problem'),
    priceChange: page.getByTestId('price-change'),
    serviceOrderId: page.getByTestId('service-order-id'),
    reference: page.getByTestId('order-reference'),
    badge: view.getByTestId('state-badge'),
    recipient: page.getByTestId('order-recipient'),
    models: page.getByTestId('order-model'),
    modelQuantity: page.getByTestId('model-quantity'),
    /** Waits for a model's thumbnail to be drawn. */
    thumbnailDrawn: (timeout = 30_000) => page.locator('[data-testid="order-model"] [data-testid="model-thumb"][data-drawn="yes"]').waitFor({ timeout }),
    /** the shipping rule a queued order's method is picked by when it is sent */
    rule: view.getByTestId('order-rule'),
    shippingPrice: page.getByTestId('shipping-price'),
    shippingWindow: page.getByTestId('shipping-window'),
    origin: page.getByTestId('order-origin'),
    action: (id: string) => page.getByTestId('order-actions').getByTestId(id),
    /** The names of the buttons offered for the order where it stands. */
    actionNames: () => page.getByTestId('order-actions').getByRole('button').allTextContents(),
    openBatch: () => page.getByTestId('open-batch').click(),
  };
}
