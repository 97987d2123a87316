// Sends a crash or a lost workstation left half done, taken back into the queue to go again under the same
// reference (the service places a reference once): the store's, in a module of its own for its rules.
import type { Sql } from '../storage/sql.ts';
import type { EventDetail } from './events.ts';
import { processAlive } from './sender-lock.ts';

/** A send under way this long has outlived any request's timeout: its process is gone, whatever its pid shows. */
const SENDING_STALE_MS = 10 * 60_000;

export interface RequeueDeps {
  sql: Sql;
  now: () => Date;
  stamp: (at?: Date) => string;
  /** this workstation: its own sends are asked of their processes, another's wait for their lease */
  workstation: string;
  record: (on: Sql, id: string, at: string, details: readonly EventDetail[]) => Promise<unknown>;
  /** tells the other workstations these drafts changed, in `tx` */
  told: (tx: Sql, ids: readonly string[]) => Promise<unknown>;
}

/**
 * After a crash: a draft left in `sending` may or may not have reached the service; send it again with its
 * reference. Only the sends no running outbox has under way (`sendingHere` are this process's): a send
 * another program still has under way would otherwise go out twice.
 */
export async function requeueSends(deps: RequeueDeps, sendingHere: Pick<ReadonlySet<string>, 'has'> = new Set(), isAlive: (pid: number) => boolean = processAlive): Promise<number> {
  const { sql, now, stamp, workstation, record, told } = deps;
  const staleBefore = stamp(new Date(now().getTime() - SENDING_STALE_MS));
  const rows = await sql.all<{ id: string; sender_pid: number | null; updated_at: string; attempts: number; claimed_by: string | null; lease_until: number }>(
    `SELECT id, sender_pid, updated_at, attempts, claimed_by, lease_until FROM drafts WHERE state = 'sending'`,
  );
  const nowMs = now().getTime();
  // Here, a sender's process is asked directly (at once after a crash); another workstation's send is its
  // own until its lease lapses, which it renews while it waits for the service.
  const here = (row: (typeof rows)[number]) => row.claimed_by === null || row.claimed_by === workstation;
  const underHere = (row: (typeof rows)[number]) => (row.sender_pid === process.pid ? sendingHere.has(row.id) : row.sender_pid !== null && isAlive(row.sender_pid));
  const lapsed = (row: (typeof rows)[number]) => row.lease_until > 0 && row.lease_until < nowMs;
  const cut = rows.filter((row) => lapsed(row) || (here(row) ? row.updated_at < staleBefore || !underHere(row) : row.lease_until === 0 && row.updated_at < staleBefore));
  if (cut.length === 0) return 0;
  const interrupted = (attempt: number): EventDetail => ({
    kind: 'attempt',
    attempt,
    outcome: 'interrupted',
    message: 'PrintDesk stopped before the service answered; it is sent again under the same reference, so it cannot be placed twice.',
  });
  return sql.transaction(
    async (tx) => {
      let changes = 0;
      for (const row of cut) {
        // Only if still as read: the sender may have answered, or renewed its lease, meanwhile.
        const changed = await tx.run(
          `UPDATE drafts SET state = 'queued', next_attempt_at = 0, unanswered = 1, lease_until = 0, version = version + 1 WHERE id = ? AND state = 'sending' AND lease_until = ?`,
          [row.id, row.lease_until],
        );
        if (changed) await record(tx, row.id, stamp(), [interrupted(row.attempts)]);
        changes += changed;
      }
      await told(tx, cut.map((row) => row.id));
      return changes;
    },
    { durable: true },
  );
}
