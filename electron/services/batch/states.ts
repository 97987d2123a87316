// A batch's state as several workstations change it at once (team mode; two programs on one computer alike):
// every change is conditional on the state it leaves, so that two pausing, resuming or finishing one batch
// change it once and never undo each other, and each is told to the other workstations at its commit
// (live.ts). Sending is claimed first: the process that checks and queues a batch's orders holds the claim,
// renewed while it works, and another asking to send the same batch meanwhile joins it rather than queuing
// its orders a second time.
import type { Sql } from '../storage/sql.ts';
import { placeholders } from '../storage/sql.ts';
import { tellBatches } from './live.ts';
import type { BatchState } from './schemas.ts';
import type { BatchRecord } from './tables.ts';

/** How long a claim holds unless renewed: its holder renews it every third of that while it works. */
export const CLAIM_MS = 30_000;

/** This process, as the batches it changes name it. */
export interface Claimant {
  /** the orders store's `sender`: workstation and process */
  sender: string;
  /** "ada@shop.example on bench-2", or null */
  actor: () => string | null;
}

/** Whether a process checks and queues the batch's send now: its claim has not lapsed, and it is not known to be gone. */
export function claimHeld(batch: Pick<BatchRecord, 'claim' | 'claimUntil'>, nowMs: number, gone: (sender: string) => boolean): boolean {
  return batch.claim !== null && batch.claimUntil > nowMs && !gone(batch.claim);
}

export interface Move {
  finishedAt?: string | null;
  sentAt?: string;
  /** only if this process holds the batch's send claim, which the move then ends */
  claimed?: boolean;
}

export type BatchStates = ReturnType<typeof batchStates>;

export function batchStates(sql: Sql, me: Claimant, now: () => number = Date.now) {
  /**
   * Moves the batch from one of `leaving` to `to`, told to the others at commit; false when it was in none of
   * them (another workstation moved it first). `on`: a transaction to join.
   */
  function move(id: string, leaving: readonly BatchState[], to: BatchState, patch: Move = {}, on: Sql = sql): Promise<boolean> {
    const columns: Record<string, unknown> = { state: to };
    if (patch.finishedAt !== undefined) columns.finished_at = patch.finishedAt;
    if (patch.sentAt !== undefined) columns.sent_at = patch.sentAt;
    if (patch.claimed) columns.send_claim_until = 0;
    const sets = Object.keys(columns).map((column) => `${column} = ?`).join(', ');
    const claimed = patch.claimed ? ' AND send_claim = ?' : '';
    return on.transaction(async (tx) => {
      const changed = await tx.run(`UPDATE batches SET ${sets} WHERE id = ? AND state IN (${placeholders(leaving.length)})${claimed}`, [
        ...Object.values(columns),
        id,
        ...leaving,
        ...(patch.claimed ? [me.sender] : []),
      ]);
      if (changed) await tellBatches(tx, me.sender, [id]);
      return changed > 0;
    });
  }

  /**
   * Takes the batch's send for this process, unless it is on its way or another process holds it (`gone`
   * says which holders are known to have stopped: theirs is taken over at once, another workstation's once it
   * lapses). Compared with the batch as read, so of two workstations claiming at once, one has it.
   */
  async function claim(batch: BatchRecord, gone: (sender: string) => boolean): Promise<boolean> {
    if (batch.state === 'sending' || batch.state === 'paused' || claimHeld(batch, now(), gone)) return false;
    return sql.transaction(async (tx) => {
      const changed = await tx.run(
        `UPDATE batches SET send_claim = ?, send_claim_until = ?, sent_by = ?
         WHERE id = ? AND state NOT IN ('sending', 'paused') AND COALESCE(send_claim, '') = ? AND send_claim_until = ?`,
        [me.sender, now() + CLAIM_MS, me.actor(), batch.id, batch.claim ?? '', batch.claimUntil],
      );
      if (changed) await tellBatches(tx, me.sender, [batch.id]);
      return changed > 0;
    });
  }

  /** Keeps this process's claim while it still checks or queues the batch. */
  async function renew(id: string): Promise<void> {
    await sql.run('UPDATE batches SET send_claim_until = ? WHERE id = ? AND send_claim = ? AND send_claim_until > 0', [now() + CLAIM_MS, id, me.sender]);
  }

  /** Ends this process's claim (its send stopped, or failed before anything was on its way), told to the others. */
  function release(id: string): Promise<void> {
    return sql.transaction(async (tx) => {
      if (await tx.run('UPDATE batches SET send_claim_until = 0 WHERE id = ? AND send_claim = ? AND send_claim_until > 0', [id, me.sender])) {
        await tellBatches(tx, me.sender, [id]);
      }
    });
  }

  return { move, claim, renew, release, sender: me.sender };
}
