// The batches domain in SQLite: each batch, its rows as imported (cells fixed in place are
// written back), the problems found per row, and which draft each order reference became.
// Orders themselves live in the drafts table (with batch_id); nothing here duplicates them.
import { randomUUID } from 'node:crypto';
import type { CsvRecord } from '../../../common/batch/parse-csv.ts';
import { migrate, type Db } from '../storage/database.ts';
import { MIGRATIONS } from './migrations.ts';
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

/** References of batch @id that a single order or another batch already holds: sending skips them. */
const USED_ELSEWHERE = `SELECT d.order_reference FROM drafts d LEFT JOIN batches b ON b.id = d.batch_id
  WHERE d.order_reference IN (SELECT reference FROM batch_rows WHERE batch_id = @id) AND ${heldElsewhere('@id')}`;

/**
 * References of batch @id whose order this batch has handed over and that is not back to a draft (queued,
 * on its way, placed, rejected, needing attention): sending the batch again leaves them be. A rejected
 * order's row fixed in place goes back to a draft, and is sent again.
 */
const ON_ITS_WAY = `SELECT bo.reference FROM batch_orders bo JOIN drafts d ON d.id = bo.draft_id WHERE bo.batch_id = @id AND bo.skipped IS NULL AND d.state <> 'draft'`;

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
});

export interface StoredRecord extends CsvRecord {
  reference: string;
}

export type BatchTables = ReturnType<typeof createBatchTables>;

/** Needs the orders domain migrated first (the drafts index). */
export function createBatchTables(db: Db, now: () => Date = () => new Date()) {
  migrate(db, 'batches', MIGRATIONS);
  const stamp = () => now().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const insertRow = db.prepare<[string, number, string, string]>('INSERT INTO batch_rows (batch_id, row, reference, cells) VALUES (?, ?, ?, ?)');
  const insertError = db.prepare<[string, number, string | null, string | null, string, string, string | null]>(
    'INSERT INTO batch_errors (batch_id, row, column_name, field, message, kind, reason) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );

  function create(fields: Omit<BatchRecord, 'id' | 'state' | 'createdAt' | 'sentAt' | 'finishedAt' | 'include'>, records: readonly StoredRecord[]): BatchRecord {
    const id = randomUUID();
    db.transaction(() => {
      db.prepare(
        `INSERT INTO batches (id, account, project_id, file_name, file_hash, header, mapping, shipping, layout, constants, state, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'draft', ?)`,
      ).run(id, fields.account, fields.projectId, fields.fileName, fields.fileHash, JSON.stringify(fields.header), JSON.stringify(fields.mapping), JSON.stringify(fields.shipping), fields.layout, JSON.stringify(fields.constants), stamp());
      putRows(id, records);
    })();
    return get(id) as BatchRecord;
  }

  function putRows(id: string, records: readonly StoredRecord[]) {
    for (const r of records) insertRow.run(id, r.row, r.reference, JSON.stringify(r.cells));
  }

  /** A re-import: the batch keeps its id, its rows are the new file's. */
  function replaceRows(id: string, fields: Pick<BatchRecord, 'fileName' | 'fileHash' | 'header' | 'mapping' | 'layout'>, records: readonly StoredRecord[]) {
    db.transaction(() => {
      db.prepare('UPDATE batches SET file_name = ?, file_hash = ?, header = ?, mapping = ?, layout = ? WHERE id = ?').run(fields.fileName, fields.fileHash, JSON.stringify(fields.header), JSON.stringify(fields.mapping), fields.layout, id);
      db.prepare('DELETE FROM batch_rows WHERE batch_id = ?').run(id);
      db.prepare('DELETE FROM batch_errors WHERE batch_id = ?').run(id);
      putRows(id, records);
    })();
  }

  function get(id: string): BatchRecord | null {
    const row = db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE id = ?').get(id);
    return row ? toRecord(row) : null;
  }

  function list(account: string, projectId: string): BatchRecord[] {
    return db.prepare<[string, string], BatchRow>('SELECT * FROM batches WHERE account = ? AND project_id = ? ORDER BY created_at DESC, rowid DESC').all(account, projectId).map(toRecord);
  }

  /** The latest batch of these exact bytes in this project (a re-run after an interruption). */
  function findByFile(projectId: string, fileHash: string): BatchRecord | null {
    const row = db.prepare<[string, string], BatchRow>('SELECT * FROM batches WHERE project_id = ? AND file_hash = ? ORDER BY created_at DESC, rowid DESC LIMIT 1').get(projectId, fileHash);
    return row ? toRecord(row) : null;
  }

  function inState(state: BatchState): BatchRecord[] {
    return db.prepare<[string], BatchRow>('SELECT * FROM batches WHERE state = ?').all(state).map(toRecord);
  }

  function update(id: string, patch: Partial<Pick<BatchRecord, 'mapping' | 'shipping' | 'constants' | 'include' | 'state' | 'sentAt' | 'finishedAt'>>) {
    const columns: Record<string, unknown> = {};
    if (patch.mapping) columns.mapping = JSON.stringify(patch.mapping);
    if (patch.shipping) columns.shipping = JSON.stringify(patch.shipping);
    if (patch.constants) columns.constants = JSON.stringify(patch.constants);
    if (patch.include) columns.include = JSON.stringify(patch.include);
    if (patch.state) columns.state = patch.state;
    if (patch.sentAt !== undefined) columns.sent_at = patch.sentAt;
    if (patch.finishedAt !== undefined) columns.finished_at = patch.finishedAt;
    const sets = Object.keys(columns).map((c) => `${c} = ?`).join(', ');
    if (sets) db.prepare(`UPDATE batches SET ${sets} WHERE id = ?`).run(...Object.values(columns), id);
  }

  function records(id: string, references?: readonly string[]): StoredRecord[] {
    type Row = { row: number; reference: string; cells: string };
    const rows = references
      ? references.flatMap((ref) => db.prepare<[string, string], Row>('SELECT row, reference, cells FROM batch_rows WHERE batch_id = ? AND reference = ?').all(id, ref))
      : db.prepare<[string], Row>('SELECT row, reference, cells FROM batch_rows WHERE batch_id = ? ORDER BY row').all(id);
    return rows.sort((a, b) => a.row - b.row).map((r) => ({ row: r.row, reference: r.reference, cells: JSON.parse(r.cells) as string[] }));
  }

  function record(id: string, row: number): StoredRecord | null {
    const found = db.prepare<[string, number], { reference: string; cells: string }>('SELECT reference, cells FROM batch_rows WHERE batch_id = ? AND row = ?').get(id, row);
    return found ? { row, reference: found.reference, cells: JSON.parse(found.cells) as string[] } : null;
  }

  /** One page of rows for the table view, optionally only those left to fix or send. */
  function page(id: string, offset: number, limit: number, errorsOnly: boolean): { total: number; records: StoredRecord[] } {
    // Rows left: with a problem or warning, or whose order came back (rejected, needing attention, cancelled).
    const left = `(row IN (SELECT row FROM batch_errors WHERE batch_id = ? AND kind IN ('error', 'warning'))
      OR reference IN (SELECT bo.reference FROM batch_orders bo JOIN drafts d ON d.id = bo.draft_id WHERE bo.batch_id = ? AND bo.skipped IS NULL AND d.state IN ('rejected', 'needs-attention', 'draft')))`;
    const where = `batch_id = ?${errorsOnly ? ` AND ${left}` : ''}`;
    const args = errorsOnly ? [id, id, id] : [id];
    const total = db.prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM batch_rows WHERE ${where}`).get(...args)?.n ?? 0;
    const rows = db
      .prepare<unknown[], { row: number; reference: string; cells: string }>(`SELECT row, reference, cells FROM batch_rows WHERE ${where} ORDER BY row LIMIT ? OFFSET ?`)
      .all(...args, limit, offset);
    return { total, records: rows.map((r) => ({ row: r.row, reference: r.reference, cells: JSON.parse(r.cells) as string[] })) };
  }

  function counts(id: string) {
    const one = (sql: string) => db.prepare<[string], { n: number }>(sql).get(id)?.n ?? 0;
    return {
      rows: one('SELECT COUNT(*) AS n FROM batch_rows WHERE batch_id = ?'),
      orders: one('SELECT COUNT(DISTINCT reference) AS n FROM batch_rows WHERE batch_id = ?'),
      rowsWithErrors: one("SELECT COUNT(DISTINCT row) AS n FROM batch_errors WHERE batch_id = ? AND kind = 'error'"),
      rowsWithWarnings: one("SELECT COUNT(DISTINCT row) AS n FROM batch_errors WHERE batch_id = ? AND kind = 'warning'"),
      // What a send would place now: orders with no problem in any of their rows (nor in the header, row 1,
      // which holds back all), taken (not skipped), not sent before elsewhere, not queued already.
      sendable: db
        .prepare<{ id: string }, { n: number }>(
          `SELECT COUNT(DISTINCT r.reference) AS n FROM batch_rows r
           WHERE r.batch_id = @id
             AND NOT EXISTS (SELECT 1 FROM batch_errors WHERE batch_id = @id AND row = 1 AND kind = 'error')
             AND r.reference NOT IN (SELECT b.reference FROM batch_rows b JOIN batch_errors e ON e.batch_id = b.batch_id AND e.row = b.row WHERE b.batch_id = @id AND e.kind IN ('error', 'skip'))
             AND r.reference NOT IN (${ON_ITS_WAY})
             AND r.reference NOT IN (${USED_ELSEWHERE})`,
        )
        .get({ id })?.n ?? 0,
      errors: one("SELECT COUNT(*) AS n FROM batch_errors WHERE batch_id = ? AND kind = 'error'"),
      queued: one('SELECT COUNT(*) AS n FROM batch_orders WHERE batch_id = ? AND draft_id IS NOT NULL AND skipped IS NULL'),
      usedElsewhere: db
        .prepare<{ id: string }, { n: number }>(`SELECT COUNT(DISTINCT reference) AS n FROM batch_rows WHERE batch_id = @id AND reference IN (${USED_ELSEWHERE})`)
        .get({ id })?.n ?? 0,
      notTaken: db
        .prepare<[string], { reason: SkipReason; orders: number }>(
          `SELECT e.reason, COUNT(DISTINCT r.reference) AS orders FROM batch_errors e JOIN batch_rows r ON r.batch_id = e.batch_id AND r.row = e.row
           WHERE e.batch_id = ? AND e.kind = 'skip' AND e.reason IS NOT NULL GROUP BY e.reason ORDER BY orders DESC`,
        )
        .all(id),
      // What PrintDesk read for the user ("Germany" as DE), each said once with how many rows.
      notes: db
        .prepare<[string], { message: string; rows: number }>("SELECT message, COUNT(*) AS rows FROM batch_errors WHERE batch_id = ? AND kind = 'note' GROUP BY message ORDER BY rows DESC, message LIMIT 20")
        .all(id),
    };
  }

  /** A row fixed in place; the cells the file had are kept the first time they change. */
  /** References a send of the batch would not send: held by another order, or handed over already. */
  function taken(id: string): Set<string> {
    const rows = db.prepare<{ id: string }, { reference: string }>(`SELECT order_reference AS reference FROM (${USED_ELSEWHERE}) UNION ${ON_ITS_WAY}`).all({ id });
    return new Set(rows.map((r) => r.reference));
  }

  function setRow(id: string, record: StoredRecord) {
    db.prepare('UPDATE batch_rows SET imported_cells = COALESCE(imported_cells, cells), cells = ?, reference = ? WHERE batch_id = ? AND row = ?').run(JSON.stringify(record.cells), record.reference, id, record.row);
  }

  /** Replaces the problems of the given rows (all rows when absent). */
  function putErrors(id: string, errors: readonly BatchError[], rows?: readonly number[]) {
    db.transaction(() => {
      if (rows) for (const row of rows) db.prepare('DELETE FROM batch_errors WHERE batch_id = ? AND row = ?').run(id, row);
      else db.prepare('DELETE FROM batch_errors WHERE batch_id = ?').run(id);
      for (const e of errors) insertError.run(id, e.row, e.column, e.field, e.message, e.kind, e.reason ?? null);
    })();
  }

  /** The problems of the given rows (all rows when absent), of the given kinds (all when absent). */
  function errors(id: string, rows?: readonly number[], kinds?: readonly ProblemKind[]): BatchError[] {
    type Row = { row: number; column_name: string | null; field: string | null; message: string; kind: ProblemKind; reason: SkipReason | null };
    const inRows = rows ? ` AND row IN (${rows.map(() => '?').join(', ')})` : '';
    const ofKinds = kinds ? ` AND kind IN (${kinds.map(() => '?').join(', ')})` : '';
    return db
      .prepare<unknown[], Row>(`SELECT row, column_name, field, message, kind, reason FROM batch_errors WHERE batch_id = ?${inRows}${ofKinds} ORDER BY row, rowid`)
      .all(id, ...(rows ?? []), ...(kinds ?? []))
      .map((r) => ({ row: r.row, column: r.column_name, field: r.field as BatchError['field'], message: r.message, kind: r.kind, ...(r.reason ? { reason: r.reason } : {}) }));
  }

  return { db, stamp, ...batchShipping(db), taken, create, replaceRows, get, list, findByFile, inState, update, records, record, page, counts, setRow, putErrors, errors, mappings: layoutMemory(db, stamp) };
}
