// Main-thread long tasks of a page (the Long Tasks API), for the preview benches: when each began and how
// long it took, from the moment the watch starts.
import type { Page } from 'playwright-core';

/** Records main-thread long tasks from now on (when each started, and how long it took), into window.longTasks. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const tasks: [number, number][] = [];
    (window as unknown as { longTasks: [number, number][] }).longTasks = tasks;
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push([entry.startTime, entry.duration]))).observe({ type: 'longtask' });
  });
}

export const longestTask = (page: Page) => page.evaluate(() => Math.max(0, ...(window as unknown as { longTasks: [number, number][] }).longTasks.map(([, duration]) => duration)));
/** When the longest task began, from the click (ms), to tell which stage of opening it belongs to; null without one. */
export const longestTaskAt = (page: Page) =>
  page.evaluate(() => {
    const tasks = (window as unknown as { longTasks: [number, number][] }).longTasks;
    const click = performance.getEntriesByName('preview:click').at(-1)?.startTime ?? 0;
    const longest = tasks.reduce<[number, number] | null>((best, task) => (!best || task[1] > best[1] ? task : best), null);
    return longest ? Math.round(longest[0] - click) : null;
  });
export const forgetTasks = (page: Page) => page.evaluate(() => void ((window as unknown as { longTasks: [number, number][] }).longTasks.length = 0));
