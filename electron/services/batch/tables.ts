// The batches domain on the store interface (the local SQLite file or a team's PostgreSQL): each batch, its
// rows as imported (cells fixed in place are written back), the problems found per row, and which draft each
// order reference became. Orders themselves live in the drafts table (with batch_id); nothing here duplicates
// them. Many rows at once go in multi-row statements (storage/many-rows.ts).
import { randomUUID } from 'node:crypto';
import type { CsvRecord } from '../../../common/batch/parse-csv.ts';
import { insertMany, runInChunks, chunksOf } from '../storage/many-rows.ts';
import { migrateSql, placeholders, type Sql } from '../storage/sql.ts';
import { INSERTION_ORDER, MIGRATIONS } from './migrations.ts';
import type { FieldConstants } from '../../../common/batch/mapping.ts';
import type { ProblemKind, SkipReason } from '../../../common/batch/rows-to-orders.ts';
import type { NotOpen, PlatformId } from '../../../common/batch/platforms/types.ts';
import type { BatchError, BatchState, ColumnMapping, ShippingChoice } from './schemas.ts';
import { batchShipping } from './shipping-table.ts';
import { layoutMemory } from './layout-memory.ts';


/**
 * For drafts `d` joined to their batches `b`: held by a single order or another batch than `batchParam`'s,
 * so that sending that batch skips the reference. A draft a cancelled batch left unsent is not held (the
 * send takes it over; see enqueue.ts).
 */
export const heldElsewhere = (batchParam: string) =>
  `(d.batch_id IS NULL OR d.batch_id <> ${batchParam}) AND NOT (COALESCE(b.state, '') = 'cancelled' AND d.state IN ('draft', 'queued'))`;

/** References of the batch that a single order or another batch already holds: sending skips them. Binds its id twice. */
const USED_ELSEWHERE = `SELECT d.order_reference FROM drafts d LEFT JOIN batches b ON b.id = d.batch_id
  WHERE d.order_reference IN (SELECT reference FROM batch_rows WHERE batch_id = ?) AND ${heldElsewhere('?')}`;

/**
 * References of the batch (its id bound once) whose order this batch has handed over and that is not back to a draft (queued,
 * on its way, placed, rejected, needing attention): sending the batch again leaves them be. A rejected
 * order's row fixed in place goes back to a draft, and is sent again.
 */
const ON_ITS_WAY = `SELECT bo.reference FROM batch_orders bo JOIN drafts d ON d.id = bo.draft_id WHERE bo.batch_id = ? AND bo.skipped IS NULL AND d.state <> 'draft'`;

export interface BatchRecord {
  id: string;
  account: string;
  projectId: string;
  fileName: string;
  fileHash: string;
  header: string[];
  mapping: ColumnMapping;
  shipping: ShippingChoice;
  /** the platform whose export this is (platforms/), or null */
  layout: PlatformId | null;
  constants: FieldConstants;
  /** orders not open on their platform that are taken all the same, by why */
  include: NotOpen[];
  state: BatchState;
  createdAt: string;
  sentAt: string | null;
  finishedAt: string | null;
  /** who sent it last: "ada@shop.example on bench-2", or null (before team mode, or nobody to name) */
  sentBy: string | null;
  /** the process checking and queuing its send (orders store's `sender`), while `claimUntil` (ms) is ahead */
  claim: string | null;
  claimUntil: number;
}

interface BatchRow {
  id: string;
  account: string;
  project_id: string;
  file_name: string;
  file_hash: string;
  header: string;
  mapping: string;
  shipping: string;
  layout: string | null;
  constants: string;
  include: string;
  state: BatchState;
  created_at: string;
  sent_at: string | null;
  finished_at: string | null;
  sent_by: string | null;
  send_claim: string | null;
  send_claim_until: number;
}

const toRecord = (r: BatchRow): BatchRecord => ({
  id: r.id,
  account: r.account,
  projectId: r.project_id,
  fileName: r.file_name,
  fileHash: r.file_hash,
  header: JSON.parse(r.header) as string[],
  mapping: JSON.parse(r.mapping) as ColumnMapping,
  shipping: JSON.parse(r.shipping) as ShippingChoice,
  layout: (r.layout as PlatformId | null) ?? null,
  constants: JSON.parse(r.constants) as FieldConstants,
  include: JSON.parse(r.include) as NotOpen[],
  state: r.state,
  createdAt: r.created_at,
  sentAt: r.sent_at,
  finishedAt: r.finished_at,
  sentBy: r.sent_by,
  claim: r.send_claim,
  claimUntil: Number(r.send_claim_until),
});

export interface StoredRecord extends CsvRecord {
  reference: string;
}

export type BatchTables = Awaited<ReturnType<typeof createBatchTables>>;

type RowRecord = { row: number; reference: string; cells: string };
const toStored = (r: RowRecord): StoredRecord => ({ row: r.row, reference: r.reference, cells: JSON.parse(r.cells) as string[] });

/** Needs the orders domain migrated first (the drafts index). */
export async function createBatchTables(sql: Sql, now: () => Date = () => new Date()) {
  await migrateSql(sql, 'batches', MIGRATIONS);
  const stamp = () => now().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const newestFirst = `created_at DESC, ${INSERTION_ORDER[sql.dialect]} DESC`;
  // A fix in place: the cells the file had are kept the first time they change.
  const setRowsOf = (values: string) => `UPDATE batch_rows SET imported_cells = COALESCE(batch_rows.imported_cells, batch_rows.cells), cells = v.new_cells, reference = v.new_reference
    FROM (SELECT column1 AS at_row, column2 AS new_cells, column3 AS new_reference FROM (VALUES ${values}) AS v) AS v
    WHERE batch_rows.batch_id = ? AND batch_rows.row = v.at_row`;

  async function create(fields: Omit<BatchRecord, 'id' | 'state' | 'createdAt' | 'sentAt' | 'finishedAt' | 'include' | 'sentBy' | 'claim' | 'claimUntil'>, records: readonly StoredRecord[]): Promise<BatchRecord> {
    const id = randomUUID();
    await sql.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO batches (id, account, project_id, file_name, file_hash, header, mapping, shipping, layout, constants, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?)`,
        [id, fields.account, fields.projectId, fields.fileName, fields.fileHash, JSON.stringify(fields.header), JSON.stringify(fields.mapping), JSON.stringify(fields.shipping), fields.layout, JSON.stringify(fields.constants), stamp()],
      );
      await putRows(tx, id, records);
    });
    return (await get(id)) as BatchRecord;
  }

  function putRows(tx: Sql, id: string, records: readonly StoredRecord[]) {
    return insertMany(tx, 'batch_rows', ['batch_id', 'row', 'reference', 'cells'], records.map((r) => [id, r.row, r.reference, JSON.stringify(r.cells)]));
  }

  /** A re-import: the batch keeps its id, its rows are the new file's. */
  async function replaceRows(id: string, fields: Pick<BatchRecord, 'fileName' | 'fileHash' | 'header' | 'mapping' | 'layout'>, records: readonly StoredRecord[]) {
    await sql.transaction(async (tx) => {
      await tx.run('UPDATE batches SET file_name = ?, file_hash = ?, header = ?, mapping = ?, layout = ? WHERE id = ?', [fields.fileName, fields.fileHash, JSON.stringify(fields.header), JSON.stringify(fields.mapping), fields.layout, id]);
      await tx.run('DELETE FROM batch_rows WHERE batch_id = ?', [id]);
      await tx.run('DELETE FROM batch_errors WHERE batch_id = ?', [id]);
      await putRows(tx, id, records);
    });
  }

  async function get(id: string): Promise<BatchRecord | null> {
    const row = await sql.get<BatchRow>('SELECT * FROM batches WHERE id = ?', [id]);
    return row ? toRecord(row) : null;
  }

  async function list(account: string, projectId: string): Promise<BatchRecord[]> {
    return (await sql.all<BatchRow>(`SELECT * FROM batches WHERE account = ? AND project_id = ? ORDER BY ${newestFirst}`, [account, projectId])).map(toRecord);
  }

  /** The latest batch of these exact bytes in this project (a re-run after an interruption). */
  async function findByFile(projectId: string, fileHash: string): Promise<BatchRecord | null> {
    const row = await sql.get<BatchRow>(`SELECT * FROM batches WHERE project_id = ? AND file_hash = ? ORDER BY ${newestFirst} LIMIT 1`, [projectId, fileHash]);
    return row ? toRecord(row) : null;
  }

  async function inState(state: BatchState): Promise<BatchRecord[]> {
    return (await sql.all<BatchRow>('SELECT * FROM batches WHERE state = ?', [state])).map(toRecord);
  }

  async function update(id: string, patch: Partial<Pick<BatchRecord, 'mapping' | 'shipping' | 'constants' | 'include' | 'state' | 'sentAt' | 'finishedAt'>>): Promise<void> {
    const columns: Record<string, unknown> = {};
    if (patch.mapping) columns.mapping = JSON.stringify(patch.mapping);
    if (patch.shipping) columns.shipping = JSON.stringify(patch.shipping);
    if (patch.constants) columns.constants = JSON.stringify(patch.constants);
    if (patch.include) columns.include = JSON.stringify(patch.include);
    if (patch.state) columns.state = patch.state;
    if (patch.sentAt !== undefined) columns.sent_at = patch.sentAt;
    if (patch.finishedAt !== undefined) columns.finished_at = patch.finishedAt;
    const sets = Object.keys(columns).map((c) => `${c} = ?`).join(', ');
    if (sets) await sql.run(`UPDATE batches SET ${sets} WHERE id = ?`, [...Object.values(columns), id]);
  }

  /** The batch's rows in order; only those of the given references when asked. */
  async function records(id: string, references?: readonly string[]): Promise<StoredRecord[]> {
    if (!references) return (await sql.all<RowRecord>('SELECT row, reference, cells FROM batch_rows WHERE batch_id = ? ORDER BY row', [id])).map(toStored);
    const rows: RowRecord[] = [];
    for (const some of chunksOf([...new Set(references)], 1000)) {
      rows.push(...(await sql.all<RowRecord>(`SELECT row, reference, cells FROM batch_rows WHERE batch_id = ? AND reference IN (${placeholders(some.length)})`, [id, ...some])));
    }
    return rows.sort((a, b) => a.row - b.row).map(toStored);
  }

  async function record(id: string, row: number): Promise<StoredRecord | null> {
    const found = await sql.get<RowRecord>('SELECT row, reference, cells FROM batch_rows WHERE batch_id = ? AND row = ?', [id, row]);
    return found ? toStored(found) : null;
  }

  /** One page of rows for the table view, optionally only those left to fix or send. */
  async function page(id: string, offset: number, limit: number, errorsOnly: boolean): Promise<{ total: number; records: StoredRecord[] }> {
    // Rows left: with a problem or warning, or whose order came back (rejected, needing attention, cancelled).
    const left = `(row IN (SELECT row FROM batch_errors WHERE batch_id = ? AND kind IN ('error', 'warning'))
      OR reference IN (SELECT bo.reference FROM batch_orders bo JOIN drafts d ON d.id = bo.draft_id WHERE bo.batch_id = ? AND bo.skipped IS NULL AND d.state IN ('rejected', 'needs-attention', 'draft')))`;
    const where = `batch_id = ?${errorsOnly ? ` AND ${left}` : ''}`;
    const args = errorsOnly ? [id, id, id] : [id];
    const total = (await sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM batch_rows WHERE ${where}`, args))?.n ?? 0;
    const rows = await sql.all<RowRecord>(`SELECT row, reference, cells FROM batch_rows WHERE ${where} ORDER BY row LIMIT ? OFFSET ?`, [...args, limit, offset]);
    return { total, records: rows.map(toStored) };
  }

  // The summary's figures in one statement (one round trip to a team's store). What a send would place now:
  // orders with no problem in any of their rows (nor in the header, row 1, which holds back all), taken (not
  // skipped), not sent before elsewhere, not queued already.
  const FIGURES = `SELECT
    (SELECT COUNT(*) FROM batch_rows WHERE batch_id = ?) AS rows,
    (SELECT COUNT(DISTINCT reference) FROM batch_rows WHERE batch_id = ?) AS orders,
    (SELECT COUNT(DISTINCT row) FROM batch_errors WHERE batch_id = ? AND kind = 'error') AS "rowsWithErrors",
    (SELECT COUNT(DISTINCT row) FROM batch_errors WHERE batch_id = ? AND kind = 'warning') AS "rowsWithWarnings",
    (SELECT COUNT(DISTINCT r.reference) FROM batch_rows r
      WHERE r.batch_id = ?
        AND NOT EXISTS (SELECT 1 FROM batch_errors WHERE batch_id = ? AND row = 1 AND kind = 'error')
        AND r.reference NOT IN (SELECT b.reference FROM batch_rows b JOIN batch_errors e ON e.batch_id = b.batch_id AND e.row = b.row WHERE b.batch_id = ? AND e.kind IN ('error', 'skip'))
        AND r.reference NOT IN (${ON_ITS_WAY})
        AND r.reference NOT IN (${USED_ELSEWHERE})) AS sendable,
    (SELECT COUNT(*) FROM batch_errors WHERE batch_id = ? AND kind = 'error') AS errors,
    (SELECT COUNT(*) FROM batch_orders WHERE batch_id = ? AND draft_id IS NOT NULL AND skipped IS NULL) AS queued,
    (SELECT COUNT(DISTINCT reference) FROM batch_rows WHERE batch_id = ? AND reference IN (${USED_ELSEWHERE})) AS "usedElsewhere"`;
  const FIGURES_PARAMS = FIGURES.split('?').length - 1;
  type Figures = { rows: number; orders: number; rowsWithErrors: number; rowsWithWarnings: number; sendable: number; errors: number; queued: number; usedElsewhere: number };

  async function counts(id: string) {
    const figures = (await sql.get<Figures>(FIGURES, Array.from({ length: FIGURES_PARAMS }, () => id))) as Figures;
    const notTaken = await sql.all<{ reason: SkipReason; orders: number }>(
      `SELECT e.reason, COUNT(DISTINCT r.reference) AS orders FROM batch_errors e JOIN batch_rows r ON r.batch_id = e.batch_id AND r.row = e.row
       WHERE e.batch_id = ? AND e.kind = 'skip' AND e.reason IS NOT NULL GROUP BY e.reason ORDER BY orders DESC`,
      [id],
    );
    // What PrintDesk read for the user ("Germany" as DE), each said once with how many rows.
    const notes = await sql.all<{ message: string; rows: number }>(
      "SELECT message, COUNT(*) AS rows FROM batch_errors WHERE batch_id = ? AND kind = 'note' GROUP BY message ORDER BY rows DESC, message LIMIT 20",
      [id],
    );
    return { ...figures, notTaken, notes };
  }

  /** References a send of the batch would not send: held by another order, or handed over already. */
  async function taken(id: string): Promise<Set<string>> {
    const rows = await sql.all<{ reference: string }>(`SELECT order_reference AS reference FROM (${USED_ELSEWHERE}) AS elsewhere UNION ${ON_ITS_WAY}`, [id, id, id]);
    return new Set(rows.map((r) => r.reference));
  }

  /** Rows fixed in place (cells, and the reference they name), in one transaction. */
  async function setRows(id: string, records: readonly StoredRecord[]): Promise<void> {
    if (records.length === 0) return;
    await sql.transaction((tx) => runInChunks(tx, records.map((r) => [r.row, JSON.stringify(r.cells), r.reference]), ['INTEGER', null, null], setRowsOf, { after: [id] }));
  }

  /** Replaces the problems of the given rows (all rows when absent). */
  async function putErrors(id: string, errors: readonly BatchError[], rows?: readonly number[]): Promise<void> {
    await sql.transaction(async (tx) => {
      if (!rows) await tx.run('DELETE FROM batch_errors WHERE batch_id = ?', [id]);
      else for (const some of chunksOf(rows, 1000)) await tx.run(`DELETE FROM batch_errors WHERE batch_id = ? AND row IN (${placeholders(some.length)})`, [id, ...some]);
      const values = errors.map((e) => [id, e.row, e.column, e.field, e.message, e.kind, e.reason ?? null]);
      await insertMany(tx, 'batch_errors', ['batch_id', 'row', 'column_name', 'field', 'message', 'kind', 'reason'], values);
    });
  }

  /** The problems of the given rows (all rows when absent), of the given kinds (all when absent). */
  async function errors(id: string, rows?: readonly number[], kinds?: readonly ProblemKind[]): Promise<BatchError[]> {
    type Row = { row: number; column_name: string | null; field: string | null; message: string; kind: ProblemKind; reason: SkipReason | null };
    const ofKinds = kinds ? ` AND kind IN (${placeholders(kinds.length)})` : '';
    const select = (inRows: string, params: readonly unknown[]) =>
      sql.all<Row>(`SELECT row, column_name, field, message, kind, reason FROM batch_errors WHERE batch_id = ?${inRows}${ofKinds} ORDER BY row, ${INSERTION_ORDER[sql.dialect]}`, [id, ...params, ...(kinds ?? [])]);
    let found: Row[];
    if (!rows) found = await select('', []);
    else {
      found = [];
      for (const some of chunksOf([...new Set(rows)], 1000)) found.push(...(await select(` AND row IN (${placeholders(some.length)})`, some)));
      // Each row is in one chunk, in its order: a stable sort by row keeps it.
      found.sort((a, b) => a.row - b.row);
    }
    return found.map((r) => ({ row: r.row, column: r.column_name, field: r.field as BatchError['field'], message: r.message, kind: r.kind, ...(r.reason ? { reason: r.reason } : {}) }));
  }

  return { sql, stamp, ...batchShipping(sql), taken, create, replaceRows, get, list, findByFile, inState, update, records, record, page, counts, setRows, putErrors, errors, mappings: layoutMemory(sql, stamp) };
}
