// What PrintDesk remembers per header layout (a shop's export, keyed by its column names): the user's
// matching of columns to fields, and the values given for every row (the shop's contact for Etsy's orders).
import type { ColumnMapping, FieldConstants } from '../../../common/batch/mapping.ts';
import type { Db } from '../storage/database.ts';

export type LayoutMemory = ReturnType<typeof layoutMemory>;

export function layoutMemory(db: Db, stamp: () => string) {
  // A layout whose values were given before any matching was changed holds the mapping 'null'.
  const upsert = (set: string) =>
    db.prepare<[string, string, string, string]>(`INSERT INTO batch_mappings (layout_key, mapping, used_at, constants) VALUES (?, ?, ?, ?) ON CONFLICT (layout_key) DO UPDATE SET ${set}, used_at = excluded.used_at`);
  const rememberMapping = upsert('mapping = excluded.mapping');
  const rememberValues = upsert('constants = excluded.constants');
  return {
    remember(layoutKey: string, mapping: ColumnMapping) {
      rememberMapping.run(layoutKey, JSON.stringify(mapping), stamp(), '{}');
    },
    recall(layoutKey: string): ColumnMapping | null {
      const row = db.prepare<[string], { mapping: string }>("SELECT mapping FROM batch_mappings WHERE layout_key = ? AND mapping <> 'null'").get(layoutKey);
      return row ? (JSON.parse(row.mapping) as ColumnMapping) : null;
    },
    rememberConstants(layoutKey: string, constants: FieldConstants) {
      rememberValues.run(layoutKey, 'null', stamp(), JSON.stringify(constants));
    },
    recallConstants(layoutKey: string): FieldConstants {
      const row = db.prepare<[string], { constants: string }>('SELECT constants FROM batch_mappings WHERE layout_key = ?').get(layoutKey);
      return row ? (JSON.parse(row.constants) as FieldConstants) : {};
    },
  };
}
