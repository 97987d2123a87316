import type { AppError } from '../../../electron/contract/channels.ts';
import type { BatchRow, BatchSku, BatchSummary, ColumnMapping, FieldConstants, ShippingChoice } from '../../../electron/services/batch/schemas.ts';
import type { NotOpen } from '../../../common/batch/platforms/types.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';

/**
 * The batch under review and what fixes it in place: its rows page by page, cells, the column matching,
 * the SKU table, values for every row and the shipping rule. The Batch view's store (batches.svelte.ts)
 * adds the project's list, the send, its progress and the report.
 */
export class BatchReview {
  current = $state<BatchSummary | null>(null);
  rows = $state<BatchRow[]>([]);
  totalRows = $state(0);
  /** the SKUs the batch names, with the model each prints (empty for a file without a SKU column) */
  skus = $state<BatchSku[]>([]);
  errorsOnly = $state(false);
  busy = $state(false);
  error = $state<AppError | null>(null);

  protected run = async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    this.busy = true;
    this.error = null;
    try {
      return await fn();
    } catch (error) {
      this.error = asAppError(error);
      return undefined;
    } finally {
      this.busy = false;
    }
  };

  /** `limit` rows from `offset` (at most 1000), or null without a batch. */
  private rowsFrom = async (offset: number, limit = 500) => {
    const batchId = this.current?.id;
    if (!batchId) return null;
    const page = unwrap(await printdesk.batch.rows({ batchId, offset, limit, errorsOnly: this.errorsOnly }));
    this.totalRows = page.total;
    return page.rows;
  };

  loadRows = async () => {
    const rows = await this.rowsFrom(0);
    if (rows) this.rows = rows;
  };

  /**
   * The batch and the rows shown read again: another workstation of the team changed it. As many rows as
   * shown (pages of the most the host gives at once), so the view does not jump; a cell being typed in keeps
   * its text unless the other workstation changed that cell.
   */
  rereadShown = async (batchId: string) => {
    const summary = await printdesk.batch.get({ batchId });
    if (!summary.ok || this.current?.id !== batchId) return;
    const shown = Math.max(this.rows.length, 1);
    const rows: BatchRow[] = [];
    for (let offset = 0; offset < shown; offset += 1000) {
      const page = await this.rowsFrom(offset, Math.min(1000, Math.max(500, shown - offset)));
      if (!page?.length) break;
      rows.push(...page);
    }
    if (this.current?.id !== batchId) return;
    this.current = summary.value;
    this.rows = rows;
  };

  /** The next page of rows, after those shown: every row of a large file can be reached and fixed. */
  loadMore = async () => {
    await this.run(async () => {
      const rows = await this.rowsFrom(this.rows.length);
      // Rows come in order: what this page repeats (rows that moved up meanwhile) is at or before the last shown.
      const last = this.rows.at(-1)?.row ?? 0;
      if (rows) this.rows = [...this.rows, ...rows.filter((r) => r.row > last)];
    });
  };

  filterErrors = async (on: boolean) => {
    this.errorsOnly = on;
    await this.loadRows();
  };

  updateCell = async (row: number, column: number, value: string) => {
    const batchId = this.current?.id;
    if (!batchId) return;
    await this.run(async () => {
      const result = unwrap(await printdesk.batch.updateCell({ batchId, row, column, value }));
      this.current = result.summary;
      for (const updated of result.rows) {
        const index = this.rows.findIndex((r) => r.row === updated.row);
        if (index !== -1) this.rows[index] = updated;
      }
    });
  };

  setMapping = async (mapping: ColumnMapping) => {
    const batchId = this.current?.id;
    if (!batchId) return;
    await this.run(async () => {
      this.current = unwrap(await printdesk.batch.setMapping({ batchId, mapping }));
      await Promise.all([this.loadRows(), this.loadSkus()]);
    });
  };

  loadSkus = async () => {
    const batch = this.current;
    if (!batch) return;
    const listed = batch.mapping.sku === undefined ? { ok: true as const, value: [] } : await printdesk.batch.skus({ batchId: batch.id });
    if (listed.ok && this.current?.id === batch.id) this.skus = listed.value;
  };

  /** A SKU's model (or "not a print") for the project: every batch of it finds it so from now on. */
  setSku = async (sku: string, choice: { modelId: string | null; skip: boolean }) => {
    const batchId = this.current?.id;
    if (!batchId) return;
    await this.run(async () => {
      this.current = unwrap(await printdesk.batch.setSku({ batchId, sku, ...choice }));
      await Promise.all([this.loadRows(), this.loadSkus()]);
    });
  };

  /** Values for every row that has none, and orders taken though not open. */
  setOptions = async (options: { constants?: FieldConstants; include?: NotOpen[] }) => {
    const batchId = this.current?.id;
    if (!batchId) return;
    await this.run(async () => {
      this.current = unwrap(await printdesk.batch.setOptions({ batchId, ...options }));
      await this.loadRows();
    });
  };

  exportSkus = async (): Promise<string | null> => {
    const batchId = this.current?.id;
    return batchId ? unwrap(await printdesk.batch.exportSkus({ batchId })).csv : null;
  };

  /** A SKU table as CSV into the project's; the number of SKUs taken, or null when it failed (said). */
  importSkus = async (file: File): Promise<number | null> => {
    const batchId = this.current?.id;
    if (!batchId) return null;
    const result = await this.run(async () => {
      const path = await pathOf(file);
      const { summary, imported } = unwrap(await printdesk.batch.importSkus({ batchId, path }));
      this.current = summary;
      await Promise.all([this.loadRows(), this.loadSkus()]);
      return imported;
    });
    return result ?? null;
  };

  setShipping = async (shipping: ShippingChoice) => {
    const batchId = this.current?.id;
    if (!batchId) return;
    await this.run(async () => {
      this.current = unwrap(await printdesk.batch.setShipping({ batchId, shipping }));
      await this.loadRows();
    });
  };

}

/** Where a picked or dropped file is on disk, for the main process to read. */
export async function pathOf(file: File): Promise<string> {
  const path = await printdesk.pathForFile(file);
  if (!path) throw new Error('This file cannot be read');
  return path;
}
