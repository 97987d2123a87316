import type { BatchChecking, BatchProgress, BatchReportRow, BatchSummary } from '../../../electron/services/batch/schemas.ts';
import type { BatchCosts } from '../../../common/batch/costs.ts';
import { printdesk, unwrap } from '../bridge.ts';
import { batchList } from './batch-list.svelte.ts';
import { BatchReview, pathOf } from './batch-review.svelte.ts';

export type BatchStep = 'import' | 'review' | 'send' | 'report';

/** How often a send being checked and queued on another workstation is asked about (it tells when it is done; not if it vanished). */
const PREPARING_CHECK_MS = 10_000;

/** One batch at a time in the view: its rows and errors (batch-review.svelte.ts), its send, progress and report. */
class BatchesStore extends BatchReview {
  projectId = $state<string | null>(null);
  progress = $state<BatchProgress | null>(null);
  report = $state<BatchReportRow[] | null>(null);
  /** the current batch's shipping being checked (quotes at the service's pace), while it lasts */
  checking = $state<BatchChecking | null>(null);
  /** what Send would place and cost, while the user is asked to confirm it */
  costs = $state<BatchCosts | null>(null);
  /** whether Send leaves the orders with problems out (asked with the costs) */
  private skipInvalid = false;
  /** a sent batch's rows left (invalid, rejected, cancelled) are being fixed: the review, not the report */
  fixing = $state(false);
  /** who sends the batch shown, when this workstation's Send found it on its way already and joined in */
  joinedBy = $state<string | null>(null);

  /** The project's batches, kept as they are on every workstation (batch-list.svelte.ts). */
  get list(): BatchSummary[] {
    return batchList.items;
  }

  constructor() {
    super();
    printdesk.on('batch:checking', (checking) => {
      // While a file is imported its batch is not the current one yet: its check is what the view waits for.
      if (this.current && checking.batchId !== this.current.id && !this.busy) return;
      this.checking = checking.done < checking.total ? checking : null;
    });
    printdesk.on('batch:progress', (progress) => {
      if (progress.batchId === this.current?.id) void this.takeProgress(progress).catch(() => undefined);
    });
    // The team's store may have changed unheard (its connection came back): the batch shown is read again.
    printdesk.on('store:reread', () => void this.reread());
    // Fixed on another workstation while shown here: read again, a burst of changes once.
    printdesk.on('batch:edited', ({ batchId }) => {
      if (batchId !== this.current?.id || this.step !== 'review') return;
      clearTimeout(this.editedReload);
      this.editedReload = setTimeout(() => void this.rereadShown(batchId).catch(() => undefined), 150);
    });
    // After a cancel, the orders that were on their way still finish: their rows read "pending" until then.
    printdesk.on('drafts:changed', (draft) => {
      if (draft.state === 'sending' || !this.pendingReferences.has(draft.orderReference)) return;
      clearTimeout(this.reportReload);
      this.reportReload = setTimeout(() => void this.loadReport(), 200);
    });
  }

  private reportReload: ReturnType<typeof setTimeout> | undefined;
  private editedReload: ReturnType<typeof setTimeout> | undefined;
  private preparingCheck: ReturnType<typeof setTimeout> | undefined;

  /**
   * The batch's progress as the host read it, sent here or on another workstation. A send being checked and
   * queued elsewhere is asked about again now and then, should its workstation vanish; one that stopped
   * before the batch was on its way leaves the batch to the review, as it is now.
   */
  private takeProgress = async (progress: BatchProgress): Promise<void> => {
    clearTimeout(this.preparingCheck);
    if (progress.preparing) this.preparingCheck = setTimeout(() => void this.refreshProgress().catch(() => undefined), PREPARING_CHECK_MS);
    if (progress.state === 'draft' && !progress.preparing) {
      if (!this.progress) return;
      [this.progress, this.joinedBy] = [null, null];
      return this.recount(progress.batchId);
    }
    this.progress = progress;
    // The send joined was taken over here (its workstation vanished): it is no longer another's.
    if (this.joinedBy && !progress.joined && progress.sentBy !== this.joinedBy) this.joinedBy = null;
    if (progress.state === 'done' || progress.state === 'cancelled') await this.loadReport();
  };

  private reread = async () => {
    const batchId = this.current?.id;
    if (!batchId) return;
    await this.recount(batchId);
    if (this.current?.state !== 'draft' || this.progress) await this.refreshProgress().catch(() => undefined);
  };
  /** The report's rows still on their way, looked up on every order event (a report may hold 100,000 rows). */
  private pendingReferences = new Set<string>();

  get step(): BatchStep {
    if (!this.current) return 'import';
    if (this.fixing && !this.progress) return 'review';
    if (this.report && (this.current.state === 'done' || this.progress?.state === 'done' || this.progress?.state === 'cancelled')) return 'report';
    if (this.current.state !== 'draft' || this.progress) return 'send';
    return 'review';
  }

  /**
   * The project's batches. Coming to the view (after a restart, say) with a batch on its way shows that
   * batch's progress: what a shop comes back for. Not when the user has just closed a batch to see all.
   */
  open = async (projectId: string, showSending = true) => {
    this.projectId = projectId;
    await this.run(async () => {
      const list = await batchList.load(projectId);
      const moving = showSending && !this.current ? list.find((b) => b.state === 'sending' || b.state === 'paused') : undefined;
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
    [this.progress, this.report, this.joinedBy] = [null, null, null];
    if (summary.state !== 'draft' || summary.preparing) void this.refreshProgress();
  };

  select = async (summary: BatchSummary) => {
    this.show(summary);
    await Promise.all([this.loadRows(), this.loadSkus()]);
  };

  close = () => {
    [this.current, this.fixing, this.rows, this.skus] = [null, false, [], []];
    [this.progress, this.report, this.joinedBy] = [null, null, null];
    if (this.projectId) void this.open(this.projectId, false);
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
      const progress = unwrap(await printdesk.batch.send({ batchId, skipInvalid }));
      // Already on its way from another workstation (or being queued there): this one joined in.
      this.joinedBy = progress.joined ? (progress.sentBy ?? 'another workstation') : null;
      await this.takeProgress(progress);
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
    const progress = unwrap(await printdesk.batch.progress({ batchId }));
    if (this.current?.id === batchId) await this.takeProgress(progress);
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

export const batches = new BatchesStore();
