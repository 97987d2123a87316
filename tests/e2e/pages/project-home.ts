import type { Page } from 'playwright-core';

/** A project's overview: its name, whether it can still be used, and the counts that open Orders on a tab. */
export function projectHome(page: Page) {
  return {
    view: page.getByTestId('project-home'),
    currentProject: page.getByTestId('current-project'),
    accessLost: page.getByTestId('access-lost'),
    openTile: (tab: 'draft' | 'outbox' | 'attention' | 'placed') => page.getByTestId(`tile-${tab}`).click(),
  };
}
