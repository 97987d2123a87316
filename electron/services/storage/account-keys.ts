// Account keys ("<service> <e-mail>") written before an address was kept in lower case, brought to the one
// form, so that signing in in other capitals finds them. A schema step of each domain that keys by account.
import type { Db } from './database.ts';
import type { Sql } from './sql.ts';

/** The key with its e-mail part (after the last space: a service key has none, an address has none) in lower case. */
export function normalAccountKey(account: string): string {
  const at = account.lastIndexOf(' ');
  return at < 0 ? account : `${account.slice(0, at + 1)}${account.slice(at + 1).trim().toLowerCase()}`;
}

/**
 * Rewrites each table's account keys. A row whose lower-case twin already exists (a key in a primary key)
 * keeps the twin's: the two were the same account's, and the newer was written under the new form.
 */
export function lowerCaseAccountKeys(db: Db, tables: readonly string[]): void {
  for (const table of tables) {
    const accounts = db.prepare(`SELECT DISTINCT account FROM ${table} WHERE account IS NOT NULL`).pluck().all() as string[];
    for (const account of accounts) {
      const normal = normalAccountKey(account);
      if (normal === account) continue;
      db.prepare(`UPDATE OR IGNORE ${table} SET account = ? WHERE account = ?`).run(normal, account);
      db.prepare(`DELETE FROM ${table} WHERE account = ?`).run(account);
    }
  }
}

/** The same step for a domain on the store interface. A team store was never written in the older form. */
export async function lowerCaseAccountKeysIn(sql: Sql, tables: readonly string[]): Promise<void> {
  if (sql.dialect !== 'sqlite') return;
  for (const table of tables) {
    const rows = await sql.all<{ account: string }>(`SELECT DISTINCT account FROM ${table} WHERE account IS NOT NULL`);
    for (const { account } of rows) {
      const normal = normalAccountKey(account);
      if (normal === account) continue;
      await sql.run(`UPDATE OR IGNORE ${table} SET account = ? WHERE account = ?`, [normal, account]);
      await sql.run(`DELETE FROM ${table} WHERE account = ?`, [account]);
    }
  }
}
