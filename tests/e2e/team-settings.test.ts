// Settings → Team in the window: a person on their own computer points PrintDesk at the shop's PostgreSQL,
// gets a wrong password told plainly, tests the right one, moves the drafts made on this computer there,
// switches, finds them in the team's Orders, and switches back to this computer, where they still are.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startPgCluster, type PgCluster } from '../pg-cluster.ts';
import { makeShopCertificates } from '../tls-certificates.ts';
import { RECIPIENT } from './demo.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp } from './harness.ts';
import { orderForm } from './pages/order-form.ts';
import { orderRow, ordersPage } from './pages/orders.ts';
import { projectsPage } from './pages/projects.ts';
import { settingsPage } from './pages/settings.ts';
import { signInPage } from './pages/sign-in.ts';
import { teamSettings } from './pages/team-settings.ts';
import { workspace } from './pages/workspace.ts';

const PASSWORD = 'print-shop-pw';
let browser: Browser;
let cluster: PgCluster;
before(async () => {
  [browser, cluster] = await Promise.all([launchChromium(), startPgCluster({ passwords: true })]);
  await cluster.createUser('shop', PASSWORD);
});
after(async () => {
  await closeAll(browser);
  await cluster.stop();
});

const shots = join(import.meta.dirname, '..', '..', 'test-results');

test('Settings → Team: a wrong password told, the right one tested, local work moved, the team store used, and back', { timeout: 180_000 }, async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const { page } = app;
  const database = new URL(await cluster.createDatabase('shop')).pathname.slice(1);
  const where = `127.0.0.1:${cluster.port}/${database}`;
  const team = teamSettings(page);
  /** The Team section whole: the window made tall enough for it, then as it was. */
  const shoot = async (name: string) => {
    await mkdir(shots, { recursive: true });
    await page.setViewportSize({ width: 1200, height: 1600 });
    await team.section.scrollIntoViewIfNeeded();
    await team.section.screenshot({ path: join(shots, `${name}.png`) });
    await page.setViewportSize({ width: 1200, height: 780 });
  };

  // A draft made on this computer, before there is any team.
  await signInPage(page).dismissVaultNotice();
  await signInPage(page).signInWithDemo();
  await projectsPage(page).open();
  await workspace(page).nav('orders');
  await expect(page.getByTestId('orders-where')).hasText('Drafts stay on this computer.');
  const form = orderForm(page);
  await ordersPage(page).newOrder.click();
  await form.fillRecipient(RECIPIENT);
  await form.saveDraft.click();
  await expect(form.saved).visible();

  await workspace(page).nav('settings');
  await expect(team.inUse).hasText('in use');
  await team.teamStore.check();
  await expect(team.moveWhy).hasText('Test the team store’s connection first.');
  await shoot('team-settings-empty');

  // A wrong password: said plainly, and the password is nowhere in the page.
  await team.fill({ host: '127.0.0.1', port: cluster.port, database, user: 'shop', password: 'not-the-password' });
  await team.test.click();
  await expect(team.testFailed).hasText('Wrong password');
  await expect(team.testFailed).hasText('The server did not accept the password of “shop”.');
  await shoot('team-settings-error');

  // The right one: who answered, and that the database is still empty.
  await team.password.fill(PASSWORD);
  await team.test.click();
  await expect(team.testOk).hasText(new RegExp(`PostgreSQL \\d+\\.\\d+ at 127\\.0\\.0\\.1:${cluster.port}/${database}, as “shop”`));
  await expect(team.testOk).hasText('The database is empty');
  await shoot('team-settings-tested');

  // This computer's draft goes into the team store (and stays here too).
  await team.move.click();
  await expect(team.moveReport).hasText(`Copied into ${where}`);
  await expect(team.moveReport).hasText('1 order, with 1 step of its history');
  await expect(team.moveReport).hasText('Your work is still on this computer too.');
  await expect(team.testOk).hasText('PrintDesk’s store is there, with 1 order.');
  await shoot('team-settings-moved');

  // Switched: the page loads again from the services on the team store, and says so.
  await team.use.click();
  await expect(team.switched).hasText(`PrintDesk now keeps drafts in the team store at ${where}.`);
  await expect(team.inUse).hasText(`in use: ${where}`);
  await expect(page.getByTestId('about')).hasText(`In the team store at ${where}`);
  if ((await page.content()).includes(PASSWORD)) throw new Error('the password is in the page');
  await workspace(page).nav('orders');
  await expect(page.getByTestId('orders-where')).hasText(`shared with your team's workstations (${where})`);
  await expect(orderRow(ordersPage(page).row('draft')).recipient).hasText('Grace Hopper');
  await app.screenshot('team-orders-after-switch');

  // Back to this computer: its draft is where it was.
  await workspace(page).nav('settings');
  await expect(team.teamStore).visible();
  await team.thisComputer.check();
  await team.use.click();
  await expect(team.switched).hasText('PrintDesk now keeps drafts on this computer.');
  await settingsPage(page).close.click().catch(() => workspace(page).nav('orders'));
  await workspace(page).nav('orders');
  await expect(page.getByTestId('orders-where')).hasText('Drafts stay on this computer.');
  await expect(orderRow(ordersPage(page).row('draft')).recipient).hasText('Grace Hopper');
});

test('an empty team store\'s Orders say where this computer\'s orders are, and lead to Settings → Team', { timeout: 120_000 }, async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const { page } = app;
  const database = new URL(await cluster.createDatabase('shop')).pathname.slice(1);
  const team = teamSettings(page);
  await signInPage(page).dismissVaultNotice();
  await signInPage(page).signInWithDemo();
  await projectsPage(page).open();
  await workspace(page).nav('settings');
  await team.teamStore.check();
  // Tested with nothing filled in: the focus goes to the first field to fill.
  await team.test.click();
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'team-host', null, { timeout: 5_000 });
  await team.fill({ host: '127.0.0.1', port: cluster.port, database, user: 'shop', password: PASSWORD });
  // Pressed from the keyboard, the button is disabled while it tests, and has the focus again after.
  await team.test.focus();
  await page.keyboard.press('Enter');
  await expect(team.testOk).hasText('The database is empty');
  const testId = await team.test.getAttribute('data-testid');
  await page.waitForFunction((id) => document.activeElement?.getAttribute('data-testid') === id, testId, { timeout: 5_000 });
  await team.use.click();
  await expect(team.inUse).hasText(`in use: 127.0.0.1:${cluster.port}/${database}`);
  await workspace(page).nav('orders');
  await expect(page.getByTestId('orders-empty')).hasText('None in the team store yet. Orders written on this computer before stay in its own store');
  await app.screenshot('team-orders-empty');
  await page.getByTestId('orders-empty-team').click();
  await expect(team.section).visible();
  await page.waitForFunction(() => {
    const box = document.querySelector('[data-testid="settings-team"]')?.getBoundingClientRect();
    // Scrolled to its top, within a pixel's fraction.
    return !!box && box.top > -2 && box.top < window.innerHeight / 2;
  }, null, { timeout: 5_000 });
});

test('Settings → Team with PRINTDESK_STORE set: the store it names, not to be changed here', { timeout: 120_000 }, async (t) => {
  const teamStore = await cluster.createDatabase();
  const app = await openApp(browser, {}, { teamStore });
  t.after(() => app.close());
  const team = teamSettings(app.page);
  await signInPage(app.page).dismissVaultNotice();
  await settingsPage(app.page).open.click();
  await expect(team.environment).hasText(`Drafts live in the team store at 127.0.0.1:${cluster.port}/${new URL(teamStore).pathname.slice(1)}, as the PRINTDESK_STORE environment variable says.`);
  await expect(team.thisComputer).hidden();
  await expect(team.use).hidden();
});

test('Settings → Team over TLS to a server with the shop\'s own certificate: refused with what to do, its authority chosen, tested and used', { timeout: 180_000 }, async (t) => {
  const certificates = makeShopCertificates('DNS:localhost');
  const secured = await startPgCluster({ passwords: true, tls: certificates });
  t.after(() => secured.stop());
  await secured.createUser('shop', PASSWORD);
  const database = new URL(await secured.createDatabase('shop')).pathname.slice(1);
  const where = `localhost:${secured.port}/${database}`;
  const app = await openApp(browser);
  t.after(() => app.close());
  const { page } = app;
  const team = teamSettings(page);
  await signInPage(page).dismissVaultNotice();
  await settingsPage(page).open.click();
  await team.teamStore.check();
  await team.fill({ host: 'localhost', port: secured.port, database, user: 'shop', password: PASSWORD });
  await team.tls.check();
  await expect(team.authorityChosen).hidden();

  // No public authority signed the server's certificate: said, with where the remedy is.
  await team.test.click();
  await expect(team.testFailed).hasText('Its certificate is not signed by an authority PrintDesk trusts: if your shop made its own, choose that authority’s certificate under Certificate authority.');
  await app.screenshot('team-settings-untrusted');

  // A file that holds no certificate (a key copied by mistake) is told, and nothing is tried with it.
  await team.authorityFile.setInputFiles({ name: 'id_ed25519.pub', mimeType: 'text/plain', buffer: Buffer.from('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 shop@db\n') });
  await expect(team.authority).hasText('This file holds no certificate');
  await expect(team.testFailed).hidden();
  await app.screenshot('team-settings-authority-wrong-file');

  // The shop's authority: the server is trusted, and the store is used over the encrypted connection.
  await team.authorityFile.setInputFiles({ name: 'shop-ca.crt', mimeType: 'application/x-x509-ca-cert', buffer: Buffer.from(certificates.authority) });
  await expect(team.authorityChosen).hasText('shop-ca.crt · 1 certificate');
  await team.test.click();
  await expect(team.testOk).hasText(`at ${where}, as “shop”`);
  await app.screenshot('team-settings-authority');
  await team.use.click();
  await expect(team.switched).hasText(`PrintDesk now keeps drafts in the team store at ${where}.`);
  // After the page loads again the saved authority is shown by what it holds (its file's name is not kept).
  await expect(team.authorityChosen).hasText('Your shop’s own authority · 1 certificate');

  // The administrator changes the password while the store is in use: nothing to put into effect until the
  // new one is typed, and then the store in use is reconnected with it.
  await secured.setPassword('shop', 'rotated-pw');
  if (await team.use.isEnabled()) throw new Error('"Use" offered with nothing changed');
  await team.password.fill('rotated-pw');
  await expect(team.use).hasText('Reconnect with these settings');
  await team.use.scrollIntoViewIfNeeded();
  await app.screenshot('team-settings-reconnect');
  await team.test.click();
  await expect(team.testOk).hasText(`at ${where}, as “shop”`);
  await team.use.click();
  await expect(team.switched).hasText(`PrintDesk now keeps drafts in the team store at ${where}.`);
  await expect(team.inUse).hasText(`in use: ${where}`);
  await expect(team.use).hasText('Use this store');
});
