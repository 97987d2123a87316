// Live across workstations (team mode): a change to drafts is told to the other workstations on the store
// when it commits (PostgreSQL's NOTIFY, sent by the change's own transaction, so never for one rolled
// back), and each shows the drafts it was told of and lets its outbox look again. The local SQLite store has
// no other workstation to tell. Batches tell of theirs the same way, on a channel of their own (batch/live.ts).
import type { Sql } from '../storage/sql.ts';

export const DRAFTS_CHANNEL = 'printdesk_drafts';

/** A NOTIFY payload is at most 8,000 bytes: ids go in groups well under it. */
const IDS_PER_NOTICE = 100;

export interface Notice {
  /** the drafts (or batches) changed; empty for "the queue changed" (orders made due at once) */
  ids: string[];
  /** the sender, so that it does not act on its own notice: workstation and process */
  from: string;
}

/** The part of a team's store that listens (PostgresStore). */
export interface Listenable {
  listen(channel: string, onPayload: (payload: string) => void, onMissed?: () => void): Promise<() => Promise<void>>;
}

export const isListenable = (sql: Sql): sql is Sql & Listenable => typeof (sql as Partial<Listenable>).listen === 'function';

/**
 * The other workstations hear on `channel` of `ids`: in a transaction `sql`, once it commits; outside one,
 * at once (what it tells of is committed already).
 */
export async function tell(sql: Sql, channel: string, from: string, ids: readonly string[]): Promise<void> {
  if (sql.dialect !== 'postgres') return;
  for (let start = 0; start === 0 || start < ids.length; start += IDS_PER_NOTICE) {
    const notice: Notice = { ids: ids.slice(start, start + IDS_PER_NOTICE), from };
    await sql.get('SELECT pg_notify(?, ?)', [channel, JSON.stringify(notice)]);
  }
}

/** In the change's transaction `tx`: the other workstations hear of the drafts `ids` once it commits. */
export const announce = (tx: Sql, from: string, ids: readonly string[]): Promise<void> => tell(tx, DRAFTS_CHANNEL, from, ids);

/** A notice from another sender, or null for one of ours (or one not understood). */
export function noticeFrom(payload: string, me: string): Notice | null {
  try {
    const notice = JSON.parse(payload) as Partial<Notice>;
    if (notice.from === me || !Array.isArray(notice.ids)) return null;
    return { ids: notice.ids.filter((id): id is string => typeof id === 'string'), from: String(notice.from) };
  } catch {
    return null;
  }
}
