import type { Page } from 'playwright-core';

export function settingsPage(page: Page) {
  return {
    open: page.getByTestId('open-settings'),
    openFromBar: page.getByTestId('settings-button'),
    view: page.getByTestId('settings'),
    sandbox: page.getByTestId('service-sandbox'),
    custom: page.getByTestId('service-custom'),
    url: page.getByTestId('service-url'),
    urlError: page.getByTestId('service-url-error'),
    save: page.getByTestId('save-settings'),
    saved: page.getByTestId('settings-saved'),
    close: page.getByTestId('close-settings'),
  };
}
