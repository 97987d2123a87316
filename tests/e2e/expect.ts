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
    /** A string is looked for as it is; a pattern is matched (for text that names a time of day). */
    async hasText(text: string | RegExp) {
      const deadline = Date.now() + TIMEOUT_MS;
      let last = '';
      while (Date.now() < deadline) {
        last = (await locator.first().textContent({ timeout: TIMEOUT_MS }).catch(() => '')) ?? '';
        if (typeof text === 'string' ? last.includes(text) : text.test(last)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`Expected ${String(locator)} to contain "${String(text)}", last saw "${last.trim()}"`);
    },
    /** Waits for the attribute to read `value` (a layout that follows the window's size changes a frame later). */
    async hasAttribute(name: string, value: string) {
      const deadline = Date.now() + TIMEOUT_MS;
      let last = await locator.first().getAttribute(name).catch(() => null);
      while (last !== value && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        last = await locator.first().getAttribute(name).catch(() => null);
      }
      if (last !== value) throw new Error(`Expected ${String(locator)}'s ${name} to be "${value}", last saw ${last === null ? 'none' : `"${last}"`}`);
    },
    /** Waits for exactly this many matches (rows appear as the view loads them). */
    async count(n: number) {
      const deadline = Date.now() + TIMEOUT_MS;
      let last = await locator.count();
      while (last !== n && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        last = await locator.count();
      }
      if (last !== n) throw new Error(`Expected ${String(locator)} to match ${n}, last saw ${last}`);
    },
  };
}
