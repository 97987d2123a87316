import type { Page } from 'playwright-core';

export function signInPage(page: Page) {
  const form = page.getByTestId('sign-in');
  return {
    form,
    email: page.getByTestId('email'),
    password: page.getByTestId('password'),
    submit: page.getByTestId('sign-in-submit'),
    error: page.getByTestId('sign-in-error'),
    retry: page.getByTestId('sign-in-error-retry'),
    useDemo: page.getByTestId('use-demo'),
    sessionEnded: page.getByTestId('session-ended'),
    /** Browser mode's note that the keychain is out of reach, shown before signing in. */
    vaultNotice: page.getByTestId('vault-notice'),
    dismissVaultNotice: () => page.getByTestId('dismiss-vault-notice').click(),
    async signIn(email: string, password: string) {
      await page.getByTestId('email').fill(email);
      await page.getByTestId('password').fill(password);
      await page.getByTestId('sign-in-submit').click();
    },
    async signInWithDemo() {
      await page.getByTestId('use-demo').click();
      await page.getByTestId('sign-in-submit').click();
    },
  };
}
