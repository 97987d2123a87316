import type { AppError } from '../../../electron/contract/channels.ts';
import type { BatchChecking, BatchProgress, BatchReportRow, BatchRow, BatchSku, BatchSummary, ColumnMapping, FieldConstants, ShippingChoice } from '../../../electron/services/batch/schemas.ts';
import type { BatchCosts } from '../../../common/batch/costs.ts';
import type { NotOpen } from '../../../common/batch/platforms/types.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';

export type BatchStep = 'import' | 'review' | 'send' | 'report';

/** One batch at a time in the view: its rows, errors, progress and report. */
class BatchesStore {
  projectId = $state<string | null>(null);
  list = $state<BatchSummary[]>([]);
  current = $state<BatchSummary | null>(null);
  rows = $state<BatchRow[]>([]);
  totalRows = $state(0);
  /** the SKUs the batch names, with the model each prints (empty for a file without a SKU column) */
  skus = $state<BatchSku[]>([]);
  errorsOnly = $state(false);
  progress = $state<BatchProgress | null>(null);
  report = $state<BatchReportRow[] | null>(null);
  busy = $state(false);
  error = $state<AppError | null>(null);
  /** the current batch's shipping being checked (quotes at the service's pace), while it lasts */
  checking = $state<BatchChecking | null>(null);
  /** what Send would place and cost, while the user is asked to confirm it */
  costs = $state<BatchCosts | null>(null);
  /** whether Send leaves the orders with problems out (asked with the costs) */
  private skipInvalid = false;
  /** a sent batch's rows left (invalid, rejected, cancelled) are being fixed: the review, not the report */
  fixing = $state(false);

  constructor() {
    printdesk.on('batch:checking', (checking) => {
      // While a file is imported its batch is not the current one yet: its check is what the view waits for.
      if (this.current && checking.batchId !== this.current.id && !this.busy) return;
      this.checking = checking.done < checking.total ? checking : null;
    });
    printdesk.on('batch:progress', (progress) => {
      if (progress.batchId !== this.current?.id) return;
      this.progress = progress;
      if (progress.state === 'done' || progress.state === 'cancelled') void this.loadReport();
    });
    // After a cancel, the orders that were on their way still finish: their rows read "pending" until then.
    printdesk.on('drafts:changed', (draft) => {
      if (draft.state === 'sending' || !this.pendingReferences.has(draft.orderReference)) return;
      clearTimeout(this.reportReload);
      this.reportReload = setTimeout(() => void this.loadReport(), 200);
    });
  }

  private reportReload: ReturnType<typeof setTimeout> | undefined;
  /** The report's rows still on their way, looked up on every order event (a report may hold 100,000 rows). */
  private pendingReferences = new Set<string>();

  get step(): BatchStep {
    if (!this.current) return 'import';
    if (this.fixing && !this.progress) return 'review';
    if (this.report && (this.current.state === 'done' || this.progress?.state === 'done' || this.progress?.state === 'cancelled')) return 'report';
    if (this.current.state !== 'draft' || this.progress) return 'send';
    return 'review';
  }

  private run = async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
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

  /**
   * The project's batches. Coming to the view (after a restart, say) with a batch on its way shows that
   * batch's progress: what a shop comes back for. Not when the user has just closed a batch to see all.
   */
  open = async (projectId: string, showSending = true) => {
    this.projectId = projectId;
    await this.run(async () => {
      this.list = unwrap(await printdesk.batch.list({ projectId }));
      const moving = showSending && !this.current ? this.list.find((b) => b.state === 'sending' || b.state === 'paused') : undefined;
      if (moving) this.show(moving);
    });
  };

  importFile = async (file: File) => {
    const projectId = this.projectId;
    if (!projectId) return;
    await this.run(async () => {
      const path = await pathOf(file);
      this.show(unwrap(await printdesk.batch.import({ projectId, path, fileName: file.name })));
      await Promise.all([this.loadRows(), this.loadSkus()]);
    });
  };

  /** A corrected file for the batch under review: same batch, new rows. */
  reimportFile = async (file: File) => {
    const batchId = this.current?.id;
    if (!batchId) return;
    await this.run(async () => {
      const path = await pathOf(file);
      this.show(unwrap(await printdesk.batch.reimport({ batchId, path, fileName: file.name })));
      await Promise.all([this.loadRows(), this.loadSkus()]);
    });
  };

  show = (summary: BatchSummary) => {
    // Another batch's rows are not this one's: the view would show (and scroll to) them meanwhile.
    if (summary.id !== this.current?.id) [this.rows, this.skus, this.fixing] = [[], [], false];
    this.current = summary;
    this.progress = null;
    this.report = null;
    if (summary.state !== 'draft') void this.refreshProgress();
  };

  select = async (summary: BatchSummary) => {
    this.show(summary);
    await Promise.all([this.loadRows(), this.loadSkus()]);
  };

  close = () => {
    this.current = null;
    this.fixing = false;
    this.rows = [];
    this.skus = [];
    this.progress = null;
    this.report = null;
    if (this.projectId) void this.open(this.projectId, false);
  };

  /** 500 rows from `offset`, or null without a batch. */
  private rowsFrom = async (offset: number) => {
    const batchId = this.current?.id;
    if (!batchId) return null;
    const page = unwrap(await printdesk.batch.rows({ batchId, offset, limit: 500, errorsOnly: this.errorsOnly }));
    this.totalRows = page.total;
    return page.rows;
  };

  loadRows = async () => {
    const rows = await this.rowsFrom(0);
    if (rows) this.rows = rows;
  };

  /** The next page of rows, after those shown: every row of a large file can be reached and fixed. */
  loadMore = async () => {
    await this.run(async () => {
      const rows = await this.rowsFrom(this.rows.length);
      const known = new Set(this.rows.map((r) => r.row));
      if (rows) this.rows = [...this.rows, ...rows.filter((r) => !known.has(r.row))];
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

  /** Send, asked first: how many orders, what they cost to ship (by method, by country) and when they arrive. */
  askToSend = async (skipInvalid: boolean) => {
    const batchId = this.current?.id;
    if (!batchId) return;
    this.skipInvalid = skipInvalid;
    await this.run(async () => {
      this.costs = unwrap(await printdesk.batch.costs({ batchId }));
    });
    await this.recount(batchId);
  };

  confirmSend = async () => {
    this.costs = null;
    await this.send(this.skipInvalid);
  };

  cancelSend = () => {
    this.costs = null;
  };

  /** A sent batch's rows left, to fix and send from it. */
  fixRowsLeft = async () => {
    this.fixing = true;
    this.report = null;
    this.progress = null;
    this.errorsOnly = true;
    await this.loadRows();
  };

  /** Back from fixing to the batch's report. */
  showReport = async () => {
    this.fixing = false;
    this.errorsOnly = false;
    await this.refreshProgress();
  };

  send = async (skipInvalid: boolean) => {
    const batchId = this.current?.id;
    if (!batchId) return;
    this.fixing = false;
    await this.run(async () => {
      this.progress = unwrap(await printdesk.batch.send({ batchId, skipInvalid }));
    });
    await this.recount(batchId);
  };

  /** Sent or refused, the counts may have moved (a send checks every row again): the button follows them; a refusal's problems show on their rows. */
  private recount = async (batchId: string) => {
    const current = await printdesk.batch.get({ batchId });
    if (!current.ok || this.current?.id !== batchId) return;
    this.current = current.value;
    if (this.error) await this.loadRows();
  };

  refreshProgress = async () => {
    const batchId = this.current?.id;
    if (!batchId) return;
    this.progress = unwrap(await printdesk.batch.progress({ batchId }));
    if (this.progress.state === 'done' || this.progress.state === 'cancelled') await this.loadReport();
  };

  control = async (action: 'pause' | 'resume' | 'cancel') => {
    const batchId = this.current?.id;
    if (!batchId) return;
    await this.run(async () => {
      this.progress = unwrap(await printdesk.batch[action]({ batchId }));
    });
  };

  loadReport = async () => {
    const batchId = this.current?.id;
    if (!batchId) return;
    this.report = unwrap(await printdesk.batch.report({ batchId }));
    this.pendingReferences = new Set(this.report.filter((r) => r.outcome === 'pending').map((r) => r.reference));
    this.current = unwrap(await printdesk.batch.get({ batchId }));
  };

  reportCsv = async (): Promise<string | null> => {
    const batchId = this.current?.id;
    return batchId ? unwrap(await printdesk.batch.reportCsv({ batchId })).csv : null;
  };
}

/** Where a picked or dropped file is on disk, for the main process to read. */
async function pathOf(file: File): Promise<string> {
  const path = await printdesk.pathForFile(file);
  if (!path) throw new Error('This file cannot be read');
  return path;
}

export const batches = new BatchesStore();
