// The address book: each account's recipients, the most recently used first, one entry per person and address.
import type { Recipient } from '../../contract/schemas/orders.ts';
import type { Sql } from '../storage/sql.ts';

export function createRecipients(sql: Sql, stamp: () => string) {
  return {
    async remember(account: string, recipient: Recipient): Promise<void> {
      const key = [recipient.firstName, recipient.lastName, recipient.streetAddress, recipient.postal, recipient.country]
        .map((part) => part.trim().toLowerCase())
        .join('|');
      await sql.run(
        `INSERT INTO recipients (account, key, recipient, used_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (account, key) DO UPDATE SET recipient = excluded.recipient, used_at = excluded.used_at`,
        [account, key, JSON.stringify(recipient), stamp()],
      );
    },
    async list(account: string, limit = 50): Promise<Recipient[]> {
      const rows = await sql.all<{ recipient: string }>('SELECT recipient FROM recipients WHERE account = ? ORDER BY used_at DESC LIMIT ?', [account, limit]);
      return rows.map((row) => JSON.parse(row.recipient) as Recipient);
    },
  };
}
