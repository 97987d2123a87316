// The batch file and rows an order came from, read from the batch domain's tables (electron/batch/tables.ts)
// where they exist: a database the batches never opened (a test's, the outbox's alone) has none.
import type { Db } from '../storage/database.ts';

/** For a draft `d`: its batch's id, file name and import time, and the file rows holding its reference, as JSON. */
const ORIGIN = `CASE WHEN d.batch_id IS NULL THEN NULL ELSE (
  SELECT json_object('batchId', b.id, 'fileName', b.file_name, 'importedAt', b.created_at,
    'rows', json((SELECT json_group_array(row) FROM (SELECT r.row FROM batch_rows r WHERE r.batch_id = b.id AND r.reference = d.order_reference ORDER BY r.row))))
  FROM batches b WHERE b.id = d.batch_id) END`;

const present = new WeakMap<Db, boolean>();

/** The SQL of a draft's origin column: the batch it came from, or NULL while there are no batch tables. */
export function batchOriginColumn(db: Db): string {
  if (!present.get(db)) present.set(db, !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'batch_rows'`).get());
  return present.get(db) ? ORIGIN : 'NULL';
}
