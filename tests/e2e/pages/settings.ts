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
    workOffline: page.getByTestId('work-offline'),
    notifications: page.getByTestId('notifications'),
    theme: (theme: 'system' | 'light' | 'dark') => page.getByTestId(`theme-${theme}`),
    units: (units: 'mm' | 'in') => page.getByTestId(`units-${units}`),
    defaultCountry: page.getByTestId('default-country'),
    async chooseDefaultCountry(query: string) {
      await page.getByTestId('default-country').fill(query);
      await page.getByTestId('default-country-option').first().click();
    },
    defaultShipping: page.getByTestId('default-shipping'),
  };
}
