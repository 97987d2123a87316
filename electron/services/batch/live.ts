// Batches live across workstations (team mode): a batch's state changed (sent, paused, resumed, cancelled,
// done) is told in the change's own transaction, and its drafts changing here (the outbox placing them) at
// most a few times a second, after they committed: a 3,000-order send is a few notices a second per
// workstation sending it, not one per order. Each workstation reads a batch it is told of once, however many
// notices came (watcher.ts). The local SQLite store has no other workstation to tell.
import { coalesced } from '../../../common/coalesce.ts';
import { isListenable, noticeFrom, tell } from '../orders/live.ts';
import type { Sql } from '../storage/sql.ts';

export const BATCHES_CHANNEL = 'printdesk_batches';

/** How often at most the drafts of batches changing here are told (and read here): well within a second. */
const TELL_GAP_MS = 200;

/** In the change's transaction `tx`: the other workstations hear of the batches `ids` once it commits. */
export const tellBatches = (tx: Sql, from: string, ids: readonly string[]): Promise<void> => tell(tx, BATCHES_CHANNEL, from, ids);

export interface BatchNotices {
  /** Drafts of this batch changed here (committed): the others hear of it within TELL_GAP_MS. */
  changed(batchId: string): void;
  /**
   * Calls `onBatches` with the batches another workstation told of, and `onMissed` once the listening
   * connection came back after a drop (what was told meanwhile is lost). Resolves to the way to stop.
   */
  listen(onBatches: (ids: string[]) => void, onMissed: () => void): Promise<() => Promise<void>>;
  stop(): void;
}

/** `from`: this process, as the orders store names it (`store.sender`). `onTold`: the batches just told of, for this process too. */
export function batchNotices(sql: Sql, from: string, onTold: (ids: string[]) => void = () => undefined): BatchNotices {
  if (!isListenable(sql)) return { changed: () => undefined, listen: async () => async () => undefined, stop: () => undefined };
  const changed = new Set<string>();
  const flush = coalesced(() => {
    const ids = [...changed];
    changed.clear();
    // Outside a transaction: sent at once. A notice lost with the store is made good by the next one.
    tell(sql, BATCHES_CHANNEL, from, ids).catch(() => undefined);
    onTold(ids);
  }, TELL_GAP_MS);
  return {
    changed(batchId) {
      changed.add(batchId);
      flush();
    },
    listen: (onBatches, onMissed) =>
      sql.listen(
        BATCHES_CHANNEL,
        (payload) => {
          const notice = noticeFrom(payload, from);
          if (notice?.ids.length) onBatches(notice.ids);
        },
        onMissed,
      ),
    stop: () => flush.cancel(),
  };
}
