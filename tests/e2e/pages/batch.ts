import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { projectsPage } from './projects.ts';
import { signInPage } from './sign-in.ts';
import { workspace } from './workspace.ts';

/** Signed in with the demo account, on the Batch view of its first project. */
export async function openBatchPage(page: Page) {
  await signInPage(page).dismissVaultNotice();
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

/**
 * The Batch view: the project's batches, a file's review (its summary, where it came from, the SKU table,
 * the column matching and the rows), Send's question, the send on its way, its report, and the workspace a
 * batch stays after its send.
 */
export function batchPage(page: Page) {
  const sku = (name: string) => page.locator(`[data-testid="sku-row"][data-sku="${name}"]`);
  const skuSearch = (name: string) => sku(name).locator('input[type="search"]');
  const cell = (row: number, column: number) => page.getByTestId(`cell-${row}-${column}`);
  const sampleMenu = page.getByTestId('download-sample');
  return {
    view: page.getByTestId('batch'),
    empty: page.getByTestId('batch-empty'),
    /** The project's batches, by their files' names. */
    items: page.getByTestId('batch-item'),
    /** What the list says of a batch's state ("sending", "paused", "being queued", "done"…), by its file's name. */
    listedState: (fileName: string) => page.getByTestId('batch-list-item').filter({ hasText: fileName }).getByTestId('batch-item-state'),
    /** Who sent a batch, and from where, as the list says it (team mode). */
    listedItem: (fileName: string) => page.getByTestId('batch-list-item').filter({ hasText: fileName }),
    openBatch: (fileName: string) => page.getByTestId('batch-item').filter({ hasText: fileName }).click(),
    allBatches: () => page.getByRole('button', { name: 'All batches' }).click(),
    file: page.getByTestId('batch-file'),
    /** Picks a file to import, as the Import button's file picker does. */
    importFile: (path: string) => page.getByTestId('batch-file').setInputFiles(path),
    /** The names of the samples offered for download. */
    sampleNames: () => sampleMenu.locator('option').allTextContents(),
    /** Downloads the sample of this name; the download. */
    downloadSample: (name: string) => Promise.all([page.waitForEvent('download'), sampleMenu.selectOption({ label: name })]).then(([file]) => file),

    // The review of a file.
    summary: page.getByTestId('batch-summary'),
    layout: page.getByTestId('batch-layout'),
    problems: page.getByTestId('batch-problems'),
    warnings: page.getByTestId('batch-warnings'),
    usedElsewhere: page.getByTestId('used-elsewhere'),
    noReferenceColumn: page.getByTestId('no-reference-column'),
    source: page.getByTestId('batch-source'),
    notes: page.getByTestId('batch-notes'),
    /** What the platform does not export, given once for every order. */
    constants: page.getByTestId('constants'),
    async giveForEveryRow(field: 'email' | 'phoneNumber' | 'country', value: string) {
      const input = page.getByTestId(`constant-${field}`);
      await input.fill(value);
      await input.press('Tab');
    },
    /** The check box that takes the orders the platform left out for this reason (unpaid, fulfilled…). */
    include: (reason: string) => page.getByTestId(`include-${reason}`),
    skus: page.getByTestId('batch-skus'),
    sku,
    /** The model a SKU prints. */
    skuModel: (name: string) => sku(name).getByTestId('sku-model'),
    /** The field a SKU's model is found by, there while it has none. */
    skuSearch,
    /** The project's model a SKU's picker offers, by the start of its name. */
    skuChoice: (name: string, model: string) => sku(name).getByRole('button', { name: new RegExp(`^${model}`) }),
    openSkuPicker: (name: string) => skuSearch(name).click(),
    /** Picks the model of a SKU by typing part of its name, as a user does once per project. */
    async pickSku(name: string, model: string) {
      await skuSearch(name).click();
      await skuSearch(name).fill(model);
      await sku(name).getByRole('option', { name: new RegExp(`^${model}`) }).first().getByRole('button').click();
    },
    skipSku: (name: string) => sku(name).getByTestId('sku-skip').check(),
    columns: page.getByTestId('batch-columns'),
    mappingProblems: page.getByTestId('mapping-problems'),
    table: page.getByTestId('batch-rows'),
    rows: page.getByTestId('batch-row'),
    /** Why the service turned a row's order down. */
    rejected: page.getByTestId('row-rejected'),
    rowPrices: page.getByTestId('row-price'),
    /** A row's cell, by the row of the sheet (its header is row 1) and the column (0 first). */
    cell,
    async fixCell(row: number, column: number, value: string) {
      await cell(row, column).fill(value);
      await cell(row, column).press('Tab');
    },
    /** How far a cell starts right of the Problems column (negative: under it), and how far the table is scrolled sideways. */
    cellClearance: (row: number, column: number) =>
      cell(row, column).evaluate((input) => {
        const box = input.getBoundingClientRect();
        const problems = input.closest('tr')!.children[1].getBoundingClientRect();
        return { scrolled: input.closest('.table-wrap')!.scrollLeft, gap: Math.round(box.left - problems.right) };
      }),
    /**
     * Watches where on screen a cell begins: now, at every frame after, and when told to stop. The function
     * returned stops and gives that place in the last look with a Problems column and in the first without.
     */
    async watchCell(row: number, column: number): Promise<() => Promise<[number | undefined, number | undefined]>> {
      await cell(row, column).evaluate((input) => {
        const seen: [boolean, number][] = [];
        const watch = window as unknown as { cellPlaces: [boolean, number][]; stopWatching: boolean; lookAtCell: () => void };
        watch.cellPlaces = seen;
        watch.stopWatching = false;
        const look = (watch.lookAtCell = () => {
          const table = input.closest('table');
          if (table) seen.push([table.classList.contains('with-problems'), Math.round(input.closest('td')!.getBoundingClientRect().left)]);
          if (!watch.stopWatching) requestAnimationFrame(look);
        });
        look();
      });
      return () =>
        page.evaluate(() => {
          const watch = window as unknown as { cellPlaces: [boolean, number][]; stopWatching: boolean; lookAtCell: () => void };
          watch.stopWatching = true;
          // A last look now, in case no frame was drawn since the column went.
          watch.lookAtCell();
          const gone = watch.cellPlaces.findIndex(([withProblems]) => !withProblems);
          return [watch.cellPlaces[gone - 1]?.[1], watch.cellPlaces[gone]?.[1]] as [number | undefined, number | undefined];
        });
    },
    send: page.getByTestId('send-batch'),

    // Send's question: how many orders, what the shipping costs in all, by method and by country, and when they arrive.
    confirm: page.getByTestId('send-confirm'),
    confirmTotal: page.getByTestId('send-total'),
    confirmWindow: page.getByTestId('send-window'),
    confirmByCountry: page.getByTestId('send-by-country'),
    confirmMethods: page.getByTestId('send-by-method').locator('tbody tr'),
    notNow: () => page.getByTestId('send-confirm-no').click(),
    yesSend: () => page.getByTestId('send-confirm-yes').click(),
    /** Send, and yes to the confirmation that says what it costs. */
    async sendConfirmed() {
      await page.getByTestId('send-batch').click();
      await page.getByTestId('send-confirm-yes').click();
    },

    // On its way.
    progress: page.getByTestId('batch-progress'),
    waiting: page.getByTestId('batch-waiting'),
    /** The orders placed so far, as the progress panel counts them. */
    placedSoFar: async () => Number((await page.getByTestId('batch-done').textContent()) ?? 'NaN'),
    /** Who sent it, and from where (team mode). */
    sentBy: page.getByTestId('batch-sent-by'),
    /** Said when this workstation's Send found the batch on its way from another, and joined in. */
    joined: page.getByTestId('batch-joined'),
    /** Said while a workstation checks the batch and queues its orders (before it sends). */
    preparing: page.getByTestId('batch-preparing'),
    pause: page.getByTestId('batch-pause'),
    resume: page.getByTestId('batch-resume'),
    cancel: page.getByTestId('batch-cancel'),

    // The report.
    report: page.getByTestId('batch-report'),
    placed: page.getByTestId('orders-placed'),
    /** The report's rows still waiting for the service's answer. */
    pending: page.locator('[data-testid="report-row"][data-outcome="pending"]'),
    /** What came of each row, top to bottom: placed, rejected, cancelled… */
    outcomes: () => page.getByTestId('report-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-outcome'))),
    reportPrices: page.getByTestId('report-price'),
    sendRest: page.getByTestId('send-rest'),
    /** Sends what was cancelled or left, from the report, and yes to the confirmation. */
    async sendRestConfirmed() {
      await page.getByTestId('send-rest').click();
      await page.getByTestId('send-confirm-yes').click();
    },
    /** Exports the report as a spreadsheet; the download. */
    exportReport: () => Promise.all([page.waitForEvent('download'), page.getByTestId('export-report').click()]).then(([file]) => file),
    viewOrders: () => page.getByTestId('view-orders').click(),

    // The workspace a sent batch stays: its counts, and the rows left to fix and send from it.
    tally: (count: 'placed' | 'left' | 'rejected' | 'cost') => page.getByTestId(`workspace-${count}`),
    fixRowsLeft: page.getByTestId('fix-rows-left'),
  };
}
