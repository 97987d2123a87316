// What "Move my local work to the team store" copies, table by table: declared once here, with each table's
// columns read from the schema its migrations make (run on a scratch database), not listed a second time.
// A table the migrations add later and this plan does not name fails a test (tests/unit/team-settings.test.ts).
import { MIGRATIONS as BATCH_MIGRATIONS, INSERTION_ORDER } from '../batch/migrations.ts';
import { DRAFT_ORDER, ORDERS_MIGRATIONS } from '../orders/migrations.ts';
import type { MoveCounts } from '../../contract/schemas/team.ts';
import { openDatabase } from '../storage/database.ts';
import { migrateSql, type Dialect, type Sql } from '../storage/sql.ts';
import { sqliteSql } from '../storage/sqlite-sql.ts';

/** A table whose rows stand alone: each is copied unless one with its key is there already. */
export interface KeyedTable {
  table: string;
  key: readonly string[];
  /** whose rows: the signed-in account's, or all (a project's SKU table, a file layout's columns are no one's) */
  owner: 'account' | 'all';
  counted: keyof MoveCounts;
}

/** Rows that belong to one row of another table (`parent`), copied with it in its transaction and never alone. */
export interface ChildTable {
  table: string;
  parent: string;
  /** the order they are read and written in, which later reads keep (a row's problems, a history's steps) */
  order: (dialect: Dialect) => string;
  /** columns the target gives itself (a history step's id), never copied */
  generated?: readonly string[];
  counted?: keyof MoveCounts;
}

/** A table whose rows are copied with their children, keyed by `id`, in the order they were made. */
export interface ParentTable {
  table: string;
  order: (dialect: Dialect) => string;
  counted: keyof MoveCounts;
  children: readonly ChildTable[];
}

export const KEYED_TABLES: readonly KeyedTable[] = [
  { table: 'batch_skus', key: ['project_id', 'sku_key'], owner: 'all', counted: 'skus' },
  { table: 'batch_mappings', key: ['layout_key'], owner: 'all', counted: 'layouts' },
  { table: 'recipients', key: ['account', 'key'], owner: 'account', counted: 'addresses' },
];

const byColumn = (column: string) => () => column;

export const BATCHES: ParentTable = {
  table: 'batches',
  order: (dialect) => INSERTION_ORDER[dialect],
  counted: 'batches',
  children: [
    { table: 'batch_rows', parent: 'batch_id', order: byColumn('row'), counted: 'batchRows' },
    { table: 'batch_errors', parent: 'batch_id', order: (dialect) => INSERTION_ORDER[dialect] },
    { table: 'batch_orders', parent: 'batch_id', order: byColumn('reference') },
    { table: 'batch_shipping', parent: 'batch_id', order: byColumn('reference') },
  ],
};

export const DRAFTS: ParentTable = {
  table: 'drafts',
  order: (dialect) => DRAFT_ORDER[dialect],
  counted: 'orders',
  children: [{ table: 'order_events', parent: 'draft_id', order: byColumn('id'), generated: ['id'], counted: 'history' }],
};

/** Tables of the shared domains that are not work to move. */
export const NOT_MOVED = ['schema_versions'] as const;

/** Brings a store's shared domains up to date (orders first: the batches' schema indexes its drafts). */
export async function migrateShared(sql: Sql): Promise<void> {
  await migrateSql(sql, 'orders', ORDERS_MIGRATIONS);
  await migrateSql(sql, 'batches', BATCH_MIGRATIONS);
}

let schema: Promise<Map<string, string[]>> | undefined;

/**
 * Every table of the shared domains with its columns, as the migrations make them (the SQLite subset: no
 * PostgreSQL insertion-order `seq`, which the target gives itself).
 */
export function migratedColumns(): Promise<Map<string, string[]>> {
  schema ??= (async () => {
    const db = openDatabase(':memory:');
    try {
      const sql = sqliteSql(db);
      await migrateShared(sql);
      const tables = await sql.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
      const columns = new Map<string, string[]>();
      for (const { name } of tables) columns.set(name, (await sql.all<{ name: string }>(`PRAGMA table_info(${name})`)).map((column) => column.name));
      return columns;
    } finally {
      db.close();
    }
  })();
  return schema;
}

/** The columns of `table` a copy writes: the migrations' own, less those the target gives itself. */
export async function copiedColumns(table: string, generated: readonly string[] = []): Promise<string[]> {
  const columns = (await migratedColumns()).get(table);
  if (!columns) throw new Error(`The migrations make no table ${table}`);
  return columns.filter((column) => !generated.includes(column));
}
