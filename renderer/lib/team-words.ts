// Settings → Team in words: a failed connection's title, and what a move copied, kind by kind.
import type { ConnectionTest, MoveCounts } from '../../electron/contract/schemas/team.ts';

type Failure = Extract<ConnectionTest, { ok: false }>['reason'];

const TITLES: Record<Failure, string> = {
  'invalid-address': 'Not a PostgreSQL address',
  'host-not-found': 'Server not found',
  unreachable: 'The server does not answer',
  timeout: 'No answer in time',
  'password-needed': 'A password is needed',
  'wrong-password': 'Wrong password',
  'not-allowed': 'Not allowed to connect',
  'no-database': 'No such database',
  'no-permission': 'Not allowed to set up PrintDesk’s store',
  tls: 'The encrypted connection failed',
  'newer-store': 'Set up by a newer PrintDesk',
  other: 'The connection failed',
};

export const failureTitle = (reason: Failure): string => TITLES[reason];

const count = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** "12 orders, with 48 steps of their histories", "2 batches (3,000 rows)"…: the kinds there were any of. */
export function movedWords(counts: MoveCounts): string[] {
  const words: string[] = [];
  const histories = counts.orders === 1 ? 'its history' : 'their histories';
  if (counts.orders) words.push(`${count(counts.orders, 'order', 'orders')}${counts.history ? `, with ${count(counts.history, 'step', 'steps')} of ${histories}` : ''}`);
  if (counts.batches) words.push(`${count(counts.batches, 'batch', 'batches')}${counts.batchRows ? ` (${count(counts.batchRows, 'row', 'rows')})` : ''}`);
  if (counts.addresses) words.push(count(counts.addresses, 'address from the address book', 'addresses from the address book'));
  if (counts.skus) words.push(count(counts.skus, 'SKU', 'SKUs'));
  if (counts.layouts) words.push(count(counts.layouts, 'column layout', 'column layouts'));
  return words;
}
