// Drafts another workstation changed (team mode, live.ts): the ids told of within a moment are read together
// (a batch on its way tells of thousands of changes a minute), the signed-in account's shown as they are now,
// and those no longer in the store said to be gone. After the listening connection came back, what was told
// meanwhile is lost: the views read their lists again.
import { coalesced } from '../../../common/coalesce.ts';
import type { Draft } from '../../contract/schemas/orders.ts';
import { chunksOf } from '../storage/many-rows.ts';
import type { Sql } from '../storage/sql.ts';
import { DRAFTS_CHANNEL, isListenable, noticeFrom } from './live.ts';
import type { OrdersStore } from './store.ts';

/** Notices within this long are read in one go: within a second of the change, at most a few reads a second. */
const READ_GAP_MS = 100;
/** Ids a statement: well under both engines' parameter limits. */
const IDS_PER_READ = 1000;

export interface ChangedElsewhereDeps {
  store: OrdersStore;
  account: () => string | null;
  onDraft: (draft: Draft) => void;
  /** drafts deleted (by another workstation) */
  onRemoved: (ids: string[]) => void;
  /** something changed elsewhere: the outbox looks again */
  onChange: () => void;
  /** notices may have been missed (the connection came back): what is shown is read again */
  onMissed: () => void;
}

/** Listens on a team's store; on the local one, resolves to a stop that does nothing (no other workstation). */
export async function listenForChangesElsewhere(shared: Sql, deps: ChangedElsewhereDeps): Promise<() => Promise<void>> {
  if (!isListenable(shared)) return async () => undefined;
  const told = new Set<string>();
  const read = coalesced(() => void readTold().catch(() => undefined), READ_GAP_MS);

  async function readTold() {
    const ids = [...told];
    told.clear();
    const owner = deps.account();
    if (owner) {
      for (const some of chunksOf(ids, IDS_PER_READ)) {
        const { drafts, gone } = await deps.store.some(owner, some);
        drafts.forEach(deps.onDraft);
        if (gone.length) deps.onRemoved(gone);
      }
    }
    deps.onChange();
  }

  const stop = await shared.listen(
    DRAFTS_CHANNEL,
    (payload) => {
      const notice = noticeFrom(payload, deps.store.sender);
      if (!notice) return;
      notice.ids.forEach((id) => told.add(id));
      read();
    },
    () => {
      deps.onChange();
      deps.onMissed();
    },
  );
  return async () => {
    read.cancel();
    await stop();
  };
}
