import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { workspace } from './orders.ts';
import { projectsPage } from './projects.ts';
import { signInPage } from './sign-in.ts';

/** Signed in with the demo account, on the Batch view of its first project. */
export async function openBatchPage(page: Page) {
  await page.getByTestId('dismiss-vault-notice').click();
  await signInPage(page).signInWithDemo();
  await projectsPage(page).items.first().click();
  await workspace(page).nav('batch');
}

/** A file of this text, as a shop would pick it. */
export async function csvFile(name: string, text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'batch-e2e-')), name);
  await writeFile(file, text);
  return file;
}

/** The Batch view's review of a file: its summary, SKU table, values for every row and cells. */
export function batchPage(page: Page) {
  const sku = (name: string) => page.locator(`[data-testid="sku-row"][data-sku="${name}"]`);
  return {
    file: page.getByTestId('batch-file'),
    layout: page.getByTestId('batch-layout'),
    summary: page.getByTestId('batch-summary'),
    skus: page.getByTestId('batch-skus'),
    source: page.getByTestId('batch-source'),
    rows: page.getByTestId('batch-rows'),
    send: page.getByTestId('send-batch'),
    confirm: page.getByTestId('send-confirm'),
    /** Send, and yes to the confirmation that says what it costs. */
    async sendConfirmed() {
      await page.getByTestId('send-batch').click();
      await page.getByTestId('send-confirm-yes').click();
    },
    report: page.getByTestId('batch-report'),
    placed: page.getByTestId('orders-placed'),
    sku,
    cell: (row: number, column: number) => page.getByTestId(`cell-${row}-${column}`),
    /** Picks the model of a SKU by typing part of its name, as a user does once per project. */
    async pickSku(name: string, model: string) {
      const search = sku(name).locator('input[type="search"]');
      await search.click();
      await search.fill(model);
      await sku(name).getByRole('option', { name: new RegExp(`^${model}`) }).first().getByRole('button').click();
    },
    skipSku: (name: string) => sku(name).getByTestId('sku-skip').check(),
    async giveForEveryRow(field: 'email' | 'phoneNumber' | 'country', value: string) {
      const input = page.getByTestId(`constant-${field}`);
      await input.fill(value);
      await input.press('Tab');
    },
    async fixCell(row: number, column: number, value: string) {
      const cell = page.getByTestId(`cell-${row}-${column}`);
      await cell.fill(value);
      await cell.press('Tab');
    },
  };
}
