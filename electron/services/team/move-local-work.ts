// "Move my local work to the team store": this computer's drafts (with their histories and outbox state),
// batches (rows, fixes, problems, reports, shipping), the address book, the SKU table and the column layouts,
// copied into a team's store through the one store interface, table by table (moved-tables.ts). Once and
// idempotently: each row keeps its id and is copied only if the team store lacks it, and a parent goes with
// its children in one transaction, so a move run again, or after a crash halfway, copies the rest and nothing
// twice. This computer's store is left as it was, but for one thing: an order waiting in its outbox is held
// here once the team store has it, so that it is sent once, by the team's outbox (docs/storage.md).
import type { MoveCounts, MoveReport } from '../../contract/schemas/team.ts';
import { announce } from '../orders/live.ts';
import { chunksOf, insertMany, rowsPerStatement, valuesList } from '../storage/many-rows.ts';
import { placeholders, type Params, type Sql } from '../storage/sql.ts';
import { BATCHES, copiedColumns, DRAFTS, KEYED_TABLES, migrateShared, type KeyedTable, type ParentTable } from './moved-tables.ts';

export interface LocalWork {
  /** this computer's store */
  from: Sql;
  /** the team's */
  to: Sql;
  /** the signed-in account: its drafts, batches and addresses move (each person moves their own) */
  account: string;
  /** the history line each moved order gets in the team store ("Moved from bench-2's own store"), and who did it */
  movedNote: string;
  actor: string | null;
  /** Holds these orders waiting in this computer's outbox (the team store has them now); resolves to how many it held. */
  holdHere(ids: readonly string[]): Promise<number>;
  now?: () => Date;
}

type Row = Record<string, unknown>;

/** Drafts a transaction carries: few enough that a crash loses little work, many enough to be quick. */
const DRAFTS_PER_STEP = 500;

const none = (): MoveCounts => ({ orders: 0, history: 0, batches: 0, batchRows: 0, addresses: 0, skus: 0, layouts: 0 });

export async function moveLocalWork(work: LocalWork): Promise<Omit<MoveReport, 'where'>> {
  const { from, to, account } = work;
  const now = work.now ?? (() => new Date());
  await migrateShared(from);
  await migrateShared(to);
  const report = { copied: none(), skipped: none(), onTheirWay: 0, heldHere: 0 };

  async function copyKeyed(spec: KeyedTable) {
    const columns = await copiedColumns(spec.table);
    const mine = spec.owner === 'account';
    const rows = await from.all<Row>(`SELECT ${columns.join(', ')} FROM ${spec.table}${mine ? ' WHERE account = ?' : ''} ORDER BY ${spec.key.join(', ')}`, mine ? [account] : []);
    const copied = await insertMany(to, spec.table, columns, rows.map((row) => columns.map((column) => row[column])), 'ON CONFLICT DO NOTHING');
    report.copied[spec.counted] += copied;
    report.skipped[spec.counted] += rows.length - copied;
  }

  /**
   * Copies the rows of `spec` the target lacks, with their children, in one transaction; resolves to the ids
   * it copied and those already there. `sameAs`: a second column that also says a row is there (an order's
   * reference, which may be there under another id).
   */
  async function copyFamily(spec: ParentTable, rows: readonly Row[], sameAs?: string): Promise<{ copied: Set<string>; there: Set<string> }> {
    if (rows.length === 0) return { copied: new Set(), there: new Set() };
    const columns = await copiedColumns(spec.table);
    return to.transaction(async (tx) => {
      const ids = rows.map((row) => row.id as string);
      const alike = sameAs ? rows.map((row) => row[sameAs]) : [];
      const found = await tx.all<Row>(
        `SELECT id${sameAs ? `, ${sameAs}` : ''} FROM ${spec.table} WHERE id IN (${placeholders(ids.length)})${sameAs ? ` OR ${sameAs} IN (${placeholders(alike.length)})` : ''}`,
        [...ids, ...alike],
      );
      const foundIds = new Set(found.map((row) => row.id));
      const foundAlike = new Set(sameAs ? found.map((row) => row[sameAs]) : []);
      const there = new Set(rows.filter((row) => foundIds.has(row.id) || (sameAs && foundAlike.has(row[sameAs]))).map((row) => row.id as string));
      const missing = rows.filter((row) => !there.has(row.id as string));
      const copied = new Set<string>();
      for (const chunk of chunksOf(missing, rowsPerStatement(columns.length))) {
        const inserted = await tx.all<{ id: string }>(
          `INSERT INTO ${spec.table} (${columns.join(', ')}) VALUES ${valuesList(chunk.length, columns.map(() => null))} ON CONFLICT DO NOTHING RETURNING id`,
          chunk.flatMap((row) => columns.map((column) => row[column])),
        );
        for (const { id } of inserted) copied.add(id);
      }
      for (const child of spec.children) {
        const childColumns = await copiedColumns(child.table, child.generated);
        const order = `${child.parent}, ${child.order(from.dialect)}`;
        let written = 0;
        for (const parents of chunksOf([...copied], 500)) {
          const children = await from.all<Row>(`SELECT ${childColumns.join(', ')} FROM ${child.table} WHERE ${child.parent} IN (${placeholders(parents.length)}) ORDER BY ${order}`, parents);
          written += await insertMany(tx, child.table, childColumns, children.map((row) => childColumns.map((column) => row[column])));
        }
        if (child.counted) report.copied[child.counted] += written;
      }
      report.copied[spec.counted] += copied.size;
      report.skipped[spec.counted] += there.size;
      if (spec === DRAFTS && copied.size) {
        await recordMoved(tx, [...copied]);
        // The workstations on the team store show them, and their outboxes look again, once this commits.
        await announce(tx, `move:${work.actor ?? 'this computer'}`, [...copied]);
      }
      return { copied, there };
    });
  }

  /** Each moved order's history says so, as its last step. */
  async function recordMoved(tx: Sql, ids: readonly string[]) {
    const at = now().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const detail = JSON.stringify({ message: work.movedNote });
    const rows: Params[] = ids.map((id) => [id, at, 'moved', detail, work.actor]);
    await insertMany(tx, 'order_events', ['draft_id', 'at', 'kind', 'detail', 'actor'], rows);
  }

  async function copyBatches() {
    const columns = await copiedColumns(BATCHES.table);
    const batches = await from.all<Row>(`SELECT ${columns.join(', ')} FROM batches WHERE account = ? ORDER BY ${BATCHES.order(from.dialect)}`, [account]);
    // One batch a transaction: its ten thousand rows go with it, or none of them.
    for (const batch of batches) await copyFamily(BATCHES, [batch]);
  }

  async function copyDrafts() {
    const columns = await copiedColumns(DRAFTS.table);
    const order = DRAFTS.order(from.dialect);
    let after = -1;
    for (;;) {
      const page = await from.all<Row & { position: number }>(
        `SELECT ${order} AS position, ${columns.join(', ')} FROM drafts WHERE account = ? AND ${order} > ? ORDER BY ${order} LIMIT ${DRAFTS_PER_STEP}`,
        [account, after],
      );
      if (page.length === 0) return;
      after = Number(page[page.length - 1].position);
      // On its way from this computer: its answer decides what it is, so it moves once it has one.
      const notSending = page.filter((row) => row.state !== 'sending');
      report.onTheirWay += page.length - notSending.length;
      // The send leases are this computer's; in the team store the order starts unclaimed.
      const unclaimed = notSending.map(({ position: _, ...row }) => ({ ...row, claimed_by: null, lease_until: 0, sender_pid: null }));
      const { copied, there } = await copyFamily(DRAFTS, unclaimed, 'order_reference');
      // Also those copied by a move cut short before it held them.
      const waitingHere = notSending.filter((row) => row.state === 'queued' && row.held === 0 && (copied.has(row.id as string) || there.has(row.id as string)));
      if (waitingHere.length) report.heldHere += await work.holdHere(waitingHere.map((row) => row.id as string));
    }
  }

  for (const table of KEYED_TABLES) await copyKeyed(table);
  // The batches before their orders: a paused batch is there to hold its orders once they arrive.
  await copyBatches();
  await copyDrafts();
  return report;
}
