import type { Page } from 'playwright-core';

/** Settings → Team: where drafts live, a team store's connection, its test, the switch, and moving local work. */
export function teamSettings(page: Page) {
  return {
    section: page.getByTestId('settings-team'),
    thisComputer: page.getByTestId('team-local'),
    teamStore: page.getByTestId('team-team'),
    inUse: page.getByTestId('team-in-use'),
    host: page.getByTestId('team-host'),
    port: page.getByTestId('team-port'),
    database: page.getByTestId('team-database'),
    user: page.getByTestId('team-user'),
    password: page.getByTestId('team-password'),
    tls: page.getByTestId('team-tls'),
    authority: page.getByTestId('team-authority'),
    authorityChosen: page.getByTestId('team-authority-chosen'),
    authorityFile: page.getByTestId('team-authority-file'),
    test: page.getByTestId('team-test'),
    testOk: page.getByTestId('team-test-ok'),
    testFailed: page.getByTestId('team-test-failed'),
    use: page.getByTestId('team-use'),
    switched: page.getByTestId('team-switched'),
    environment: page.getByTestId('team-environment'),
    move: page.getByTestId('team-move-button'),
    moveWhy: page.getByTestId('team-move-why'),
    moveReport: page.getByTestId('team-move-report'),
    /** Fills the connection's fields as a person types them. */
    async fill(connection: { host: string; port: number; database: string; user: string; password: string }) {
      await page.getByTestId('team-host').fill(connection.host);
      await page.getByTestId('team-port').fill(String(connection.port));
      await page.getByTestId('team-database').fill(connection.database);
      await page.getByTestId('team-user').fill(connection.user);
      await page.getByTestId('team-password').fill(connection.password);
    },
  };
}
