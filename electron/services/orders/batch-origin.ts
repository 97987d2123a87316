// The batch file and rows an order came from, read from the batch domain's tables (services/batch/tables.ts)
// where they exist: a store the batches never opened (a test's, the outbox's alone) has none.
import type { Sql } from '../storage/sql.ts';

/** For a draft `d`: its batch's id, file name and import time, and the file rows holding its reference, as JSON. */
const ORIGIN = {
  sqlite: `CASE WHEN d.batch_id IS NULL THEN NULL ELSE (
  SELECT json_object('batchId', b.id, 'fileName', b.file_name, 'importedAt', b.created_at,
    'rows', json((SELECT json_group_array(row) FROM (SELECT r.row FROM batch_rows r WHERE r.batch_id = b.id AND r.reference = d.order_reference ORDER BY r.row))))
  FROM batches b WHERE b.id = d.batch_id) END`,
  postgres: `CASE WHEN d.batch_id IS NULL THEN NULL ELSE (
  SELECT json_build_object('batchId', b.id, 'fileName', b.file_name, 'importedAt', b.created_at,
    'rows', (SELECT COALESCE(json_agg(r.row ORDER BY r.row), '[]'::json) FROM batch_rows r WHERE r.batch_id = b.id AND r.reference = d.order_reference))::text
  FROM batches b WHERE b.id = d.batch_id) END`,
} as const;

const TABLE_EXISTS = {
  sqlite: `SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = 'batch_rows'`,
  postgres: `SELECT 1 AS present WHERE to_regclass('batch_rows') IS NOT NULL`,
} as const;

const present = new WeakMap<Sql, boolean>();

async function batchTables(sql: Sql): Promise<boolean> {
  if (!present.get(sql)) present.set(sql, !!(await sql.get(TABLE_EXISTS[sql.dialect])));
  return present.get(sql) as boolean;
}

/** The SQL of a draft's origin column: the batch it came from, or NULL while there are no batch tables. */
export async function batchOriginColumn(sql: Sql): Promise<string> {
  return (await batchTables(sql)) ? ORIGIN[sql.dialect] : 'NULL';
}

/**
 * For drafts `d`: not of a paused batch. Read from the store at each claim, so that a batch paused on one
 * workstation of a team holds its orders on every other one at once, not once they have heard of it.
 */
export async function notOfPausedBatch(sql: Sql): Promise<string> {
  return (await batchTables(sql)) ? `NOT EXISTS (SELECT 1 FROM batches pb WHERE pb.id = d.batch_id AND pb.state = 'paused')` : 'TRUE';
}
