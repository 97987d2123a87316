// Many rows in few statements, on either engine of the store interface (sql.ts): a batch's ten thousand rows
// are a handful of multi-row statements rather than one round trip each to a team's PostgreSQL. A statement
// stays under both engines' limits on parameters (PostgreSQL 65,535; SQLite 32,766).
import type { Params, Sql } from './sql.ts';

const MAX_PARAMETERS = 30_000;
const MAX_ROWS = 1_000;

/** How many rows of `columns` values one statement takes beside `fixed` other parameters. */
export function rowsPerStatement(columns: number, fixed = 0): number {
  return Math.max(1, Math.min(MAX_ROWS, Math.floor((MAX_PARAMETERS - fixed) / columns)));
}

/** `items` cut into runs of at most `size`. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/**
 * `(?, ?), (?, ?)…` for `rows` rows. `types` (one per column, or null) casts a column's parameters: PostgreSQL
 * reads an untyped parameter of a VALUES list as text, which then compares with no integer column.
 */
export function valuesList(rows: number, types: readonly (string | null)[]): string {
  const row = `(${types.map((type) => (type ? `CAST(? AS ${type})` : '?')).join(', ')})`;
  return Array.from({ length: rows }, () => row).join(', ');
}

/**
 * Runs `statement(valuesList)` for each chunk of `rows`, with their values in order; `before` and `after` are
 * the parameters of placeholders ahead of the list and behind it. Resolves with the rows changed. Run it inside
 * a transaction: the chunks are parts of one change.
 */
export async function runInChunks(
  sql: Sql,
  rows: readonly Params[],
  types: readonly (string | null)[],
  statement: (values: string) => string,
  params: { before?: Params; after?: Params } = {},
): Promise<number> {
  let changed = 0;
  const fixed = (params.before?.length ?? 0) + (params.after?.length ?? 0);
  for (const chunk of chunksOf(rows, rowsPerStatement(types.length, fixed))) {
    changed += await sql.run(statement(valuesList(chunk.length, types)), [...(params.before ?? []), ...chunk.flat(), ...(params.after ?? [])]);
  }
  return changed;
}

/** `INSERT INTO table (columns) VALUES …` for many rows, `tail` after the list (an ON CONFLICT clause). */
export function insertMany(sql: Sql, table: string, columns: readonly string[], rows: readonly Params[], tail = ''): Promise<number> {
  return runInChunks(sql, rows, columns.map(() => null), (values) => `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}${tail ? ` ${tail}` : ''}`);
}
