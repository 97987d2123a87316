// Account keys ("<service> <e-mail>") written before an address was kept in lower case, brought to the one
// form, so that signing in in other capitals finds them. A schema step of each domain that keys by account.
import type { Db } from './database.ts';
import type { Sql } from './sql.ts';

/** The key with its e-mail part (after the last space: a service key has none, an address has none) in lower case. */
export function normalAccountKey(account: string): string {
  const at = account.lastIndexOf(' ');
  return at < 0 ? account : `${account.slice(0, at + 1)}${account.slice(at + 1).trim().toLowerCase()}`;
}

type Statement = [sql: string, params: string[]];

/**
 * The statements that bring a table's account keys to the one form. A row whose lower-case twin already
 * exists (a key in a primary key) keeps the twin's: the two were the same account's, and the newer was
 * written under the new form.
 */
function rewrites(table: string, accounts: readonly string[]): Statement[] {
  return accounts.flatMap((account): Statement[] => {
    const normal = normalAccountKey(account);
    if (normal === account) return [];
    return [[`UPDATE OR IGNORE ${table} SET account = ? WHERE account = ?`, [normal, account]], [`DELETE FROM ${table} WHERE account = ?`, [account]]];
  });
}

const distinctAccounts = (table: string) => `SELECT DISTINCT account FROM ${table} WHERE account IS NOT NULL`;

/** The step for a domain on this computer's database alone. */
export function lowerCaseAccountKeys(db: Db, tables: readonly string[]): void {
  for (const table of tables) {
    const accounts = db.prepare(distinctAccounts(table)).pluck().all() as string[];
    for (const [sql, params] of rewrites(table, accounts)) db.prepare(sql).run(...params);
  }
}

/** The same step for a domain on the store interface. A team store was never written in the older form. */
export async function lowerCaseAccountKeysIn(sql: Sql, tables: readonly string[]): Promise<void> {
  if (sql.dialect !== 'sqlite') return;
  for (const table of tables) {
    const accounts = (await sql.all<{ account: string }>(distinctAccounts(table))).map((row) => row.account);
    for (const [statement, params] of rewrites(table, accounts)) await sql.run(statement, params);
  }
}
