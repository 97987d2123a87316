import type { Page } from 'playwright-core';

export function projectsPage(page: Page) {
  return {
    view: page.getByTestId('projects'),
    items: page.getByTestId('project-item'),
    empty: page.getByTestId('no-projects'),
    checkAgain: page.getByTestId('check-again'),
    home: page.getByTestId('project-home'),
    currentProject: page.getByTestId('current-project'),
    switchProject: page.getByTestId('switch-project'),
    signOut: page.getByTestId('sign-out'),
    account: page.getByTestId('account-email'),
    backToProject: page.getByTestId('back-to-project'),
    /** Opens the project of this name, or the first listed. */
    open: (name?: string) => (name === undefined ? page.getByTestId('project-item').first() : page.getByTestId('project-item').filter({ hasText: name })).click(),
  };
}
