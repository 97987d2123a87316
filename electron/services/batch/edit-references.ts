// Which order a row names after a fix in place: the reference made from a row's content follows it,
// unless an order was already handed over under the old one.
import { givenReference } from '../../../common/batch/references.ts';
import type { ColumnMapping } from './schemas.ts';
import type { BatchRecord, BatchTables, StoredRecord } from './tables.ts';

type WithReferences = (records: readonly StoredRecord[], mapping: ColumnMapping, projectId: string) => StoredRecord[];

/**
 * The rows whose reference an edit changes, the edited one first. A reference made from a row's content
 * follows its content, so that the same row in a corrected file names the same order. Once the batch
 * was sent, only the edited row may move, and only if its order was never queued (a draft carries the
 * reference: it keeps its own); identical rows keep their numbers.
 */
export async function referencesAfterEdit(tables: BatchTables, batch: BatchRecord, edited: StoredRecord, withReferences: WithReferences): Promise<StoredRecord[]> {
  const before = (await tables.records(batch.id)).map((r) => (r.row === edited.row ? edited : r));
  const after = withReferences(before, batch.mapping, batch.projectId);
  const wanted = after.find((r) => r.row === edited.row) as StoredRecord;
  if (!batch.sentAt) return [wanted, ...after.filter((r, i) => r.reference !== before[i].reference && r.row !== edited.row)];
  if (wanted.reference === edited.reference) return [edited];
  // An order handed over keeps its reference (its draft holds it): a rejected or cancelled one is sent again under it.
  const handedOver = await tables.sql.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM batch_orders WHERE batch_id = ? AND reference = ? AND draft_id IS NOT NULL AND skipped IS NULL',
    [batch.id, edited.reference],
  );
  if (handedOver?.n) return [edited];
  if (givenReference(batch.mapping, edited)) return [wanted];
  const taken = new Set(before.filter((r) => r.row !== edited.row).map((r) => r.reference));
  let reference = wanted.reference;
  for (let nth = 2; taken.has(reference); nth++) reference = wanted.reference.replace(/-\d+$/, `-${nth}`);
  return [{ ...edited, reference }];
}
