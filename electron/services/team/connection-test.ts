// Settings → Team's "Test connection": one connection to the server, which says who it is and whether
// PrintDesk can keep its store there, and then closes. Nothing is written.
import pg from 'pg';
import type { ConnectionTest } from '../../contract/schemas/team.ts';
import { MIGRATIONS as BATCH_MIGRATIONS } from '../batch/migrations.ts';
import { ORDERS_MIGRATIONS } from '../orders/migrations.ts';
import { whereOf } from '../../../common/team-connection.ts';
import { connectionFailure, targetOf, type ConnectionTarget } from '../storage/postgres-failure.ts';

const TIMEOUT_MS = 10_000;

/** Each shared domain's schema steps this PrintDesk knows: a store further on was written by a newer one. */
const KNOWN_VERSIONS: Record<string, number> = { orders: ORDERS_MIGRATIONS.length, batches: BATCH_MIGRATIONS.length };

interface ServerFacts {
  version: string;
  database: string;
  user: string;
  has_store: boolean;
  can_create: boolean;
}

const where = (target: ConnectionTarget) => whereOf(target);

export async function testConnection(url: string): Promise<ConnectionTest> {
  let target: ConnectionTarget;
  try {
    target = targetOf(url);
  } catch {
    return { ok: false, where: '', reason: 'invalid-address', message: 'This is not a PostgreSQL address (postgres://user@server:5432/database).' };
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS, query_timeout: TIMEOUT_MS, application_name: 'printdesk' });
  // A connection the server drops while we wait: without a listener, its error would be thrown.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const facts = (
      await client.query<ServerFacts>(`SELECT current_setting('server_version') AS version, current_database() AS database, current_user AS "user",
        to_regclass('drafts') IS NOT NULL AS has_store, COALESCE(has_schema_privilege(current_schema(), 'CREATE'), false) AS can_create`)
    ).rows[0];
    const server = `PostgreSQL ${facts.version.split(' ')[0]}`;
    if (!facts.has_store) {
      if (!facts.can_create) {
        const message = `“${facts.user}” may not create tables in “${facts.database}”, and PrintDesk sets up its own there at first use. Make the user the database’s owner (ALTER DATABASE ${facts.database} OWNER TO ${facts.user}), or give it a database of its own.`;
        return { ok: false, where: where(target), reason: 'no-permission', message };
      }
      return { ok: true, where: where(target), server, database: facts.database, user: facts.user, store: { kind: 'empty', orders: 0 } };
    }
    const newer = await newerDomains(client);
    if (newer) return { ok: false, where: where(target), reason: 'newer-store', message: `This store was set up by a newer PrintDesk (${newer}). Update PrintDesk on this computer to use it.` };
    const orders = Number((await client.query<{ n: string }>('SELECT COUNT(*) AS n FROM drafts')).rows[0].n);
    return { ok: true, where: where(target), server, database: facts.database, user: facts.user, store: { kind: 'printdesk', orders } };
  } catch (error) {
    return { ok: false, where: where(target), ...connectionFailure(error, target, url) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The domains whose schema is further on than this PrintDesk's, as "orders schema 9", or null. */
async function newerDomains(client: pg.Client): Promise<string | null> {
  const known = await client.query<{ exists: boolean }>("SELECT to_regclass('schema_versions') IS NOT NULL AS exists");
  if (!known.rows[0].exists) return null;
  const { rows } = await client.query<{ domain: string; version: number }>('SELECT domain, version FROM schema_versions');
  const newer = rows.filter((row) => row.domain in KNOWN_VERSIONS && row.version > KNOWN_VERSIONS[row.domain]);
  return newer.length ? newer.map((row) => `${row.domain} schema ${row.version}`).join(', ') : null;
}
