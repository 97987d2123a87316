// Live across workstations (team mode): a change to drafts is told to the other workstations on the store
// when it commits (PostgreSQL's NOTIFY, sent by the change's own transaction, so never for one rolled
// back), and each shows the drafts it was told of and lets its outbox look again. The local SQLite store has
// no other workstation to tell.
import type { Sql } from '../storage/sql.ts';

export const DRAFTS_CHANNEL = 'printdesk_drafts';

/** A NOTIFY payload is at most 8,000 bytes: ids go in groups well under it. */
const IDS_PER_NOTICE = 100;

export interface DraftsNotice {
  /** the drafts changed; empty for "the queue changed" (orders made due at once) */
  ids: string[];
  /** the sender, so that it does not act on its own notice: workstation and process */
  from: string;
}

/** The part of a team's store that listens (PostgresStore). */
export interface Listenable {
  listen(channel: string, onPayload: (payload: string) => void, onMissed?: () => void): Promise<() => Promise<void>>;
}

export const isListenable = (sql: Sql): sql is Sql & Listenable => typeof (sql as Partial<Listenable>).listen === 'function';

/** In the change's transaction `tx`: the other workstations hear of `ids` once it commits. */
export async function announce(tx: Sql, from: string, ids: readonly string[]): Promise<void> {
  if (tx.dialect !== 'postgres') return;
  for (let start = 0; start === 0 || start < ids.length; start += IDS_PER_NOTICE) {
    const notice: DraftsNotice = { ids: ids.slice(start, start + IDS_PER_NOTICE), from };
    await tx.get('SELECT pg_notify(?, ?)', [DRAFTS_CHANNEL, JSON.stringify(notice)]);
  }
}

/** A notice from another sender, or null for one of ours (or one not understood). */
export function noticeFrom(payload: string, me: string): DraftsNotice | null {
  try {
    const notice = JSON.parse(payload) as Partial<DraftsNotice>;
    if (notice.from === me || !Array.isArray(notice.ids)) return null;
    return { ids: notice.ids.filter((id): id is string => typeof id === 'string'), from: String(notice.from) };
  } catch {
    return null;
  }
}
