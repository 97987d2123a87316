// Waiting assertions on Playwright locators for node:test (playwright-core ships no `expect`).
import type { Locator } from 'playwright-core';

const TIMEOUT_MS = 10_000;

export function expect(locator: Locator) {
  return {
    async visible() {
      await locator.waitFor({ state: 'visible', timeout: TIMEOUT_MS });
    },
    async hidden() {
      await locator.waitFor({ state: 'hidden', timeout: TIMEOUT_MS });
    },
    async hasText(text: string) {
      const deadline = Date.now() + TIMEOUT_MS;
      let last = '';
      while (Date.now() < deadline) {
        last = (await locator.first().textContent({ timeout: TIMEOUT_MS }).catch(() => '')) ?? '';
        if (last.includes(text)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`Expected ${String(locator)} to contain "${text}", last saw "${last.trim()}"`);
    },
  };
}
