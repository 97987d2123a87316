// The defaults a daily user sets once: where new orders and quotes go, and how their shipping is chosen.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { resolveShipping } from '../../common/batch/shipping-rule.ts';
import type { Quote } from '../../electron/schemas/orders.ts';
import { openDemoProject } from './demo.ts';
import { expect } from './expect.ts';
import { closeAll, launchChromium, openApp } from './harness.ts';
import { orderForm, ordersPage, quotePage, workspace } from './pages/orders.ts';
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
  await settings.defaultCountry.fill('germ');
  await app.page.getByTestId('default-country-option').first().click();
  await expect(settings.view).hasText('New orders and quotes start with Germany.');
  await settings.defaultShipping.selectOption('fastest');
  // Kept by the host, for the next start too.
  const saved = await app.booted.host.invoke('settings:get', undefined);
  assert.ok(saved.ok);
  assert.deepEqual((saved.value as { defaultCountry: string; defaultShipping: unknown }).defaultCountry, 'DE');
  assert.deepEqual((saved.value as { defaultShipping: unknown }).defaultShipping, { kind: 'rule', rule: 'fastest' });
  await app.screenshot('settings-defaults');

  await shell.nav('quote');
  assert.match(await quotePage(app.page).country.inputValue(), /Germany \(DE\)/);
  await shell.nav('orders');
  await ordersPage(app.page).newOrder.click();
  const form = orderForm(app.page);
  assert.match(await form.field('country').inputValue(), /Germany \(DE\)/);
  await form.addModelId.fill(modelId);
  await form.addModel.click();
  // The quote comes by itself, and the fastest method in it is chosen.
  await expect(form.view.getByTestId('chosen-method')).visible();
  const rows = await app.page.getByTestId('method-row').all();
  const chosen = form.view.getByTestId('method-row').filter({ has: app.page.getByTestId('chosen-method') });
  const quote = await app.booted.host.invoke('quotes:get', { country: 'DE', models: [{ modelId, quantity: 1 }] });
  assert.ok(quote.ok && rows.length > 1);
  const fastest = resolveShipping((quote.value as Quote).methods, { kind: 'rule', rule: 'fastest' });
  assert.ok(fastest.ok);
  await expect(chosen).hasText(`€${(fastest.method.price / 100).toFixed(2)}`);
});
