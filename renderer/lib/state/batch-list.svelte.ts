import type { BatchProgress, BatchSummary } from '../../../electron/services/batch/schemas.ts';
import { printdesk, unwrap } from '../bridge.ts';

/**
 * The open project's batches, as they are on every workstation of a team: a batch imported, sent, paused,
 * resumed, cancelled or done on another shows so here within a second (the host is told, and says so in
 * `batch:progress`); after the team's store was out of reach for a moment, the list is read again.
 */
class BatchList {
  projectId = $state<string | null>(null);
  items = $state<BatchSummary[]>([]);
  /** Batches heard of that the list did not hold when it was read again for them (another project's). */
  private elsewhere = new Set<string>();

  constructor() {
    printdesk.on('batch:progress', this.follow);
    printdesk.on('store:reread', () => void this.reload());
  }

  load = async (projectId: string): Promise<BatchSummary[]> => {
    if (projectId !== this.projectId) this.elsewhere.clear();
    this.projectId = projectId;
    const items = unwrap(await printdesk.batch.list({ projectId }));
    if (projectId === this.projectId) this.items = items;
    return items;
  };

  private reload = async () => {
    if (this.projectId) await this.load(this.projectId).catch(() => undefined);
  };

  /** A batch's state, and who sends it, as the host last read it; one not listed yet is looked for once. */
  private follow = (progress: BatchProgress) => {
    const at = this.items.findIndex((b) => b.id === progress.batchId);
    if (at === -1) {
      if (this.projectId && !this.elsewhere.has(progress.batchId)) {
        this.elsewhere.add(progress.batchId);
        void this.reload();
      }
      return;
    }
    const item = this.items[at];
    if (item.state === progress.state && item.sentBy === progress.sentBy && item.preparing === progress.preparing) return;
    this.items[at] = { ...item, state: progress.state, sentBy: progress.sentBy, preparing: progress.preparing };
  };
}

export const batchList = new BatchList();
