// The defaults a daily user sets once: where new orders and quotes go, and how their shipping is chosen.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { resolveShipping } from '../../common/batch/shipping-rule.ts';
import type { Quote } from '../../electron/contract/schemas/orders.ts';
import { openDemoProject } from './demo.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp } from './harness.ts';
import { orderForm } from './pages/order-form.ts';
import { ordersPage } from './pages/orders.ts';
import { quotePage } from './pages/quote.ts';
import { workspace } from './pages/workspace.ts';
import { settingsPage } from './pages/settings.ts';

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(() => closeAll(browser));

test('a default country and shipping rule: a new order starts in that country, and the rule picks its method from the quote', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  const modelId = await openDemoProject(app);
  const shell = workspace(app.page);
  const settings = settingsPage(app.page);
  await shell.nav('settings');
  await settings.chooseDefaultCountry('germ');
  await expect(settings.view).hasText('New orders and quotes start with Germany.');
  await settings.defaultShipping.selectOption('fastest');
  // Kept by the host, for the next start too: the window saves a choice a moment after it is made (asked
  // for at once, a fast machine's host still had none).
  type Defaults = { defaultCountry: string; defaultShipping: unknown };
  const deadline = Date.now() + 10_000;
  let saved: Defaults | null = null;
  while (!saved?.defaultShipping && Date.now() < deadline) {
    const answer = await app.booted.host.invoke('settings:get', undefined);
    assert.ok(answer.ok);
    saved = answer.value as Defaults;
    if (!saved.defaultShipping) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.deepEqual(saved?.defaultCountry, 'DE');
  assert.deepEqual(saved?.defaultShipping, { kind: 'rule', rule: 'fastest' });
  await app.screenshot('settings-defaults');

  await shell.nav('quote');
  assert.match(await quotePage(app.page).country.inputValue(), /Germany \(DE\)/);
  await shell.nav('orders');
  await ordersPage(app.page).newOrder.click();
  const form = orderForm(app.page);
  assert.match(await form.field('country').inputValue(), /Germany \(DE\)/);
  await form.addModelById(modelId);
  // The quote comes by itself, and the fastest method in it is chosen.
  await expect(form.chosenMark).visible();
  const rows = await form.methodRows.all();
  const chosen = form.chosenRow;
  const quote = await app.booted.host.invoke('quotes:get', { country: 'DE', models: [{ modelId, quantity: 1 }] });
  assert.ok(quote.ok && rows.length > 1);
  const fastest = resolveShipping((quote.value as Quote).methods, { kind: 'rule', rule: 'fastest' });
  assert.ok(fastest.ok);
  await expect(chosen).hasText(`€${(fastest.method.price / 100).toFixed(2)}`);
});

test('the window itself never scrolls: each view scrolls inside, under the top bar, Settings with its Team section too', async (t) => {
  const app = await openApp(browser);
  t.after(() => app.close());
  await openDemoProject(app);
  const shell = workspace(app.page);
  const windowScrolls = () => app.page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight || window.scrollY > 0);
  for (const view of ['overview', 'library', 'quote', 'orders', 'batch', 'settings'] as const) {
    await shell.nav(view);
    await app.page.waitForTimeout(100);
    assert.equal(await windowScrolls(), false, `the window scrolls in ${view}`);
  }
  // Settings' Team section, scrolled to and worked in: the top bar stays where it is.
  await app.page.getByTestId('team-team').check();
  await app.page.getByTestId('team-test').click();
  await app.page.waitForTimeout(300);
  assert.equal(await windowScrolls(), false, 'the window scrolls in Settings → Team');
  const bar = await app.page.getByTestId('sign-out').boundingBox();
  assert.ok(bar && bar.y >= 0, `the top bar is in view (${bar?.y})`);
});
