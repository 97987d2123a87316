import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from './expect.ts';
import type { Browser } from 'playwright-core';
import { startSandbox } from '../../sandbox/server.ts';
import { DEMO_EMAIL, NO_PROJECT_EMAIL } from '../../sandbox/seed.ts';
import { closeAll, launchChromium, openApp } from './harness.ts';
import { projectsPage } from './pages/projects.ts';
import { settingsPage } from './pages/settings.ts';
import { signInPage } from './pages/sign-in.ts';
import { workspace } from './pages/workspace.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

test('a new user signs in with the demo account and opens the demo project', async () => {
  const app = await openApp(browser);
  const signIn = signInPage(app.page);
  const projects = projectsPage(app.page);
  await expect(signIn.useDemo).visible();
  await expect(signIn.vaultNotice).visible();
  await app.screenshot('01-sign-in');
  await signIn.useDemo.click();
  assert.equal(await signIn.email.inputValue(), DEMO_EMAIL);
  // This install's own password, which the sandbox made for its data folder: no published one.
  const { password } = app.booted.sandbox!.demoAccount;
  assert.notEqual(password, 'printdesk-demo');
  assert.equal(await signIn.password.inputValue(), password);
  await signIn.submit.click();
  await expect(projects.items.first()).visible();
  assert.equal(await projects.items.count(), 1);
  assert.equal(await projects.account.textContent(), DEMO_EMAIL);
  await app.screenshot('02-projects');
  await projects.items.first().click();
  await expect(projects.home).visible();
  assert.equal(await projects.currentProject.textContent(), 'Demo project');
  await app.screenshot('03-project-home');
  await app.close();
});

test('a wrong password is refused on the form and nothing is signed in', async () => {
  const app = await openApp(browser);
  const signIn = signInPage(app.page);
  await signIn.signIn(DEMO_EMAIL, 'not-the-password');
  await expect(signIn.error).hasText('Email or password is incorrect');
  assert.equal(await signIn.email.getAttribute('aria-invalid'), 'true');
  await app.screenshot('04-sign-in-wrong-password');
  // Said of what was sent: once the password is being typed again, neither the words nor the red stay.
  await signIn.password.fill('another-try');
  await expect(signIn.error).hidden();
  assert.equal(await signIn.email.getAttribute('aria-invalid'), 'false');
  await app.close();
});

test('an account without a project is told to ask the operator', async () => {
  const app = await openApp(browser);
  const signIn = signInPage(app.page);
  const projects = projectsPage(app.page);
  await signIn.signIn(NO_PROJECT_EMAIL, app.booted.sandbox!.noProjectAccount.password);
  await expect(projects.empty).visible();
  await expect(projects.empty).hasText('Ask the service operator to assign a project');
  await app.screenshot('05-no-project');
  // Once the operator assigns one, "Check again" shows it.
  const operator = app.booted.sandbox?.operator;
  await operator?.createProject('Print shop', { assign: NO_PROJECT_EMAIL });
  await projects.checkAgain.click();
  await expect(projects.items.first()).hasText('Print shop');
  await app.close();
});

test('an expired access token is renewed without the user noticing', async (t) => {
  // 2 s: a 1 s token issued late in its second can expire before the request it was renewed for.
  const app = await openApp(browser, { accessTokenTtlSeconds: 2 });
  t.after(() => app.close());
  const projects = projectsPage(app.page);
  // By keyboard: the demo account fills the form and passes the focus to Sign in, so Enter signs in.
  await signInPage(app.page).useDemo.click();
  await app.page.keyboard.press('Enter');
  // The next screen takes the focus to its heading, so Tab goes on from there rather than from the top.
  await app.page.waitForFunction(() => document.activeElement?.tagName === 'H1', null, { timeout: 5_000 });
  await projects.items.first().click();
  await expect(projects.home).visible();
  await app.page.waitForTimeout(2_100);
  await projects.switchProject.click();
  await expect(projects.items.first()).visible();
  await expect(projects.account).hasText(DEMO_EMAIL);
});

test('an expired refresh token signs the user out, saying why', async () => {
  const app = await openApp(browser, { accessTokenTtlSeconds: 1, refreshTokenTtlSeconds: 2 });
  const signIn = signInPage(app.page);
  const projects = projectsPage(app.page);
  await signIn.signInWithDemo();
  await projects.items.first().click();
  await expect(projects.home).visible();
  await app.page.waitForTimeout(3_200);
  await projects.switchProject.click();
  await expect(signIn.sessionEnded).hasText('Your session has expired');
  assert.equal(await signIn.email.inputValue(), DEMO_EMAIL, 'the account is offered again');
  await app.screenshot('06-session-expired');
  await app.close();
});

test('an unreachable service shows offline with a retry that works once it is back', async () => {
  const app = await openApp(browser);
  const signIn = signInPage(app.page);
  const sandbox = app.booted.sandbox;
  assert.ok(sandbox);
  await sandbox.close();
  await signIn.signInWithDemo();
  // The embedded sandbox did stop: said so, not that the network is at fault.
  await expect(signIn.error).hasText('The embedded sandbox stopped');
  await expect(signIn.error).hasText('Restart PrintDesk');
  assert.equal((await signIn.error.textContent())?.includes('Check your connection'), false);
  await app.screenshot('07-offline');
  const again = await startSandbox({ dataDir: join(app.dir, 'sandbox'), port: sandbox.port, quiet: true });
  try {
    await signIn.retry.click();
    await expect(projectsPage(app.page).items.first()).visible();
  } finally {
    await again.close();
  }
  app.booted.sandbox = null;
  await app.close();
});

test('in browser mode, a host that stops is named as PrintDesk, not as the service', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const signIn = signInPage(app.page);
  // The host goes away while a sign-in is on its way.
  app.booted.sandbox?.faults.set({ kind: 'latency', path: '/Auth/Login', ms: 3000 });
  await signIn.signInWithDemo();
  await delay(300);
  await app.server.close();
  await expect(signIn.error).hasText('PrintDesk has stopped');
  assert.equal((await signIn.error.textContent())?.includes('Check your connection'), false);
});

test('a 429 on sign-in says when to try again', async () => {
  const app = await openApp(browser);
  const signIn = signInPage(app.page);
  app.booted.sandbox?.faults.set({ kind: 'rate-limit', path: '/Auth/Login', retryAfterSeconds: 30 });
  await signIn.signInWithDemo();
  await expect(signIn.error).hasText('Try again in');
  assert.equal(await signIn.submit.isDisabled(), true);
  // Retry waits for the countdown too: it would only earn another 429.
  assert.equal(await signIn.retry.count(), 0);
  await app.screenshot('08-rate-limited');
  await app.close();
});

test('signing out returns to sign-in; signing in again reopens the remembered project', async () => {
  const app = await openApp(browser);
  const signIn = signInPage(app.page);
  const projects = projectsPage(app.page);
  await signIn.signInWithDemo();
  await projects.items.first().click();
  await expect(projects.home).visible();
  await projects.signOut.click();
  await expect(signIn.form).visible();
  assert.equal(await signIn.password.inputValue(), '');
  await signIn.signInWithDemo();
  await expect(projects.currentProject).hasText('Demo project');
  // Switching project and thinking better of it: Escape (or Back) returns to the project as it was.
  await projects.switchProject.click();
  await expect(projects.backToProject).hasText('← Back to Demo project');
  await expect(projects.currentProject).hasText('Currently open');
  await app.page.keyboard.press('Escape');
  await expect(projects.home).visible();
  // Settings close with Escape too.
  await workspace(app.page).openSettings();
  await expect(settingsPage(app.page).close).visible();
  await app.page.keyboard.press('Escape');
  await expect(projects.home).visible();
  await app.close();
});

test('settings accept only an https (or loopback) address ending in /v2', async () => {
  const app = await openApp(browser);
  const settings = settingsPage(app.page);
  await settings.open.click();
  await settings.custom.check();
  await settings.url.fill('http://print.example.com/v2');
  await expect(settings.urlError).hasText('Use https://');
  await settings.url.fill('https://print.example.com/api');
  await expect(settings.urlError).hasText('must end in /v2');
  await app.screenshot('09-settings-invalid');
  await settings.url.fill('https://print.example.com/v2/');
  await settings.save.click();
  await expect(settings.saved).visible();
  await expect(workspace(app.page).serviceBadge).hasText('print.example.com');
  await app.screenshot('10-settings');
  // Signing in to a service that is not there fails; back on the sandbox, that failure is not shown any more.
  await settings.url.fill('https://127.0.0.1:9/v2');
  await settings.save.click();
  await settings.close.click();
  const signIn = signInPage(app.page);
  await signIn.signIn('ada@example.com', 'a long password');
  await expect(signIn.error).visible();
  await settings.open.click();
  await settings.sandbox.check();
  await settings.save.click();
  await settings.close.click();
  await expect(signIn.useDemo).visible();
  assert.equal(await signIn.error.count(), 0, "the other service's failure is gone");
  await app.close();
});
