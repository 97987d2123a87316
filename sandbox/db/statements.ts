// Prepared statements cached per connection: preparing parses the SQL, which on a hot path
// (every request authenticates and looks things up) costs more than running the query.
import type { Statement } from 'better-sqlite3';
import type { Db } from './open.ts';

const cache = new WeakMap<Db, Map<string, Statement>>();

export function sql(db: Db, text: string): Statement {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  let statement = statements.get(text);
  if (!statement) statements.set(text, (statement = db.prepare(text)));
  return statement;
}
