import type { Page } from 'playwright-core';

/** What stays on screen around every view of an open project: the sidebar, the top bar, banners and notes. */
export function workspace(page: Page) {
  return {
    nav: (view: 'overview' | 'library' | 'quote' | 'orders' | 'batch' | 'settings') => page.getByTestId(`nav-${view}`).click(),
    navItem: (view: 'overview' | 'library' | 'quote' | 'orders' | 'batch' | 'settings') => page.getByTestId(`nav-${view}`),
    offlineBanner: page.getByTestId('offline-banner'),
    workOnline: page.getByTestId('work-online'),
    outboxCount: page.getByTestId('outbox-count'),
    toast: page.getByTestId('outbox-toast'),
    dismissToast: () => page.getByTestId('outbox-toast').getByRole('button', { name: 'Dismiss' }).click(),
    serviceBadge: page.getByTestId('service-badge'),
    account: page.getByTestId('account-email'),
    signOut: () => page.getByTestId('sign-out').click(),
    openSettings: () => page.getByTestId('settings-button').click(),
    /** The note that an order left half-written was kept as a draft, and its way back to it. */
    keptDraft: page.getByTestId('kept-draft'),
    openKeptDraft: () => page.getByTestId('open-kept-draft').click(),
  };
}
