// What PrintDesk remembers per header layout (a shop's export, keyed by its column names): the user's
// matching of columns to fields, and the values given for every row (the shop's contact for Etsy's orders).
import type { ColumnMapping, FieldConstants } from '../../../common/batch/mapping.ts';
import type { Sql } from '../storage/sql.ts';

export type LayoutMemory = ReturnType<typeof layoutMemory>;

export function layoutMemory(sql: Sql, stamp: () => string) {
  // A layout whose values were given before any matching was changed holds the mapping 'null'.
  const upsert = (set: string) =>
    `INSERT INTO batch_mappings (layout_key, mapping, used_at, constants) VALUES (?, ?, ?, ?) ON CONFLICT (layout_key) DO UPDATE SET ${set}, used_at = excluded.used_at`;
  const rememberMapping = upsert('mapping = excluded.mapping');
  const rememberValues = upsert('constants = excluded.constants');
  return {
    async remember(layoutKey: string, mapping: ColumnMapping): Promise<void> {
      await sql.run(rememberMapping, [layoutKey, JSON.stringify(mapping), stamp(), '{}']);
    },
    async recall(layoutKey: string): Promise<ColumnMapping | null> {
      const row = await sql.get<{ mapping: string }>("SELECT mapping FROM batch_mappings WHERE layout_key = ? AND mapping <> 'null'", [layoutKey]);
      return row ? (JSON.parse(row.mapping) as ColumnMapping) : null;
    },
    async rememberConstants(layoutKey: string, constants: FieldConstants): Promise<void> {
      await sql.run(rememberValues, [layoutKey, 'null', stamp(), JSON.stringify(constants)]);
    },
    async recallConstants(layoutKey: string): Promise<FieldConstants> {
      const row = await sql.get<{ constants: string }>('SELECT constants FROM batch_mappings WHERE layout_key = ?', [layoutKey]);
      return row ? (JSON.parse(row.constants) as FieldConstants) : {};
    },
  };
}
