// The store interface (sql.ts) over a team's PostgreSQL, through node-postgres (pg). Statements go through a
// pool of connections; a transaction holds one connection of its own from BEGIN to COMMIT or ROLLBACK, so
// transactions on other connections run beside it, each waiting only for the rows the other locked.
import pg from 'pg';
import { postgresNotifications, type Unlisten } from './postgres-notifications.ts';
import { numberPlaceholders } from './postgres-placeholders.ts';
import { connectionFailure, reasonText, targetOf, withoutSecret, type ConnectionFailure } from './postgres-failure.ts';
import type { Params, Sql } from './sql.ts';

export interface PostgresStore extends Sql {
  /** host:port/database, for people to read: never the password */
  readonly where: string;
  /** See Notifications.listen: a payload sent on `channel` by any workstation, from now on. */
  listen(channel: string, onPayload: (payload: string) => void, onMissed?: () => void): Promise<Unlisten>;
  /** Sends `payload` to every listener of `channel` now. Inside a transaction, `SELECT pg_notify(?, ?)` sends it at commit. */
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export interface PostgresStoreOptions {
  /** Connections at most in the pool (pg's default: 10). */
  max?: number;
}

const INT8 = 20;

/**
 * BIGINT (the millisecond times) and COUNT come back as numbers, as SQLite gives them, for this pool only. pg
 * leaves them as strings because a BIGINT may not fit a double; one that does not is refused, never rounded.
 */
function storeTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8, (text: string) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value)) throw new RangeError(`${text} is too large for a JavaScript number.`);
    return value;
  });
  return types;
}

type Queryable = Pick<pg.Pool, 'query'>;

function statements(connection: Queryable, usable: () => void): Omit<Sql, 'transaction'> {
  const query = async (text: string, params: Params) => {
    usable();
    return connection.query(numberPlaceholders(text), params as unknown[]);
  };
  return {
    dialect: 'postgres',
    all: async <T>(text: string, params: Params = []) => (await query(text, params)).rows as T[],
    get: async <T>(text: string, params: Params = []) => (await query(text, params)).rows[0] as T | undefined,
    run: async (text: string, params: Params = []) => (await query(text, params)).rowCount ?? 0,
    // Without parameters pg sends the simple protocol, which runs several statements.
    exec: async (script: string) => {
      usable();
      await connection.query(script);
    },
  };
}

/** The Sql of one pool. `durable` needs nothing here: PostgreSQL's commit is durable by default. */
function postgresSql(pool: pg.Pool): Sql {
  async function transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // While it is ours, the pool no longer listens for the connection's errors: without a listener, one would throw.
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    let ended = false;
    const tx: Sql = {
      ...statements(client, () => {
        if (ended) throw new Error('This transaction has ended: a statement must be awaited inside it.');
      }),
      // A transaction begun inside joins this one.
      transaction: (inner) => inner(tx),
    };
    try {
      await client.query('BEGIN');
      const value = await fn(tx);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client.query('ROLLBACK').catch((failure: Error) => (broken ??= failure));
      throw error;
    } finally {
      ended = true;
      client.off('error', onError);
      // A connection that failed is closed rather than handed to the next caller.
      client.release(broken);
    }
  }
  return { ...statements(pool, () => undefined), transaction };
}

/** Where a connection goes, for messages: never the URL itself, which may hold the password. */
function address(config: pg.ClientConfig): string {
  const client = new pg.Client(config);
  return `${client.host}:${client.port}`;
}

function databaseOf(config: pg.ClientConfig): string {
  return new pg.Client(config).database ?? '';
}

/**
 * The team store could not be opened: the message says where and why, never with its password; `failure`
 * sorts it for the words Settings → Team shows (postgres-failure.ts).
 */
export class TeamStoreError extends Error {
  readonly failure: ConnectionFailure;
  constructor(message: string, failure: ConnectionFailure, options?: ErrorOptions) {
    super(message, options);
    this.failure = failure;
  }
}

/**
 * Opens the team store at `url` (postgres://user:password@host:5432/database) and checks it answers, so a
 * wrong address or password is said at once, in words naming the server but never the password.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const config: pg.PoolConfig = { connectionString: url, connectionTimeoutMillis: 10_000, application_name: 'printdesk', types: storeTypes() };
  let where: string;
  try {
    where = address(config);
  } catch {
    const message = 'The team store address is not a PostgreSQL URL (postgres://user:password@host:5432/database).';
    throw new TeamStoreError(message, { reason: 'invalid-address', message });
  }
  const pool = new pg.Pool({ ...config, max: options.max });
  // An idle connection the server dropped is taken out of the pool, and the next statement opens another.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    const why = withoutSecret(reasonText(error), url);
    throw new TeamStoreError(
      error instanceof pg.DatabaseError
        ? `The team store at ${where} refused the connection: ${why}`
        : `The team store at ${where} could not be reached: ${why}`,
      connectionFailure(error, targetOf(url), url),
      { cause: error },
    );
  }
  const sql = postgresSql(pool);
  const notifications = postgresNotifications(config);
  return {
    ...sql,
    where: `${where}/${databaseOf(config)}`,
    listen: notifications.listen,
    notify: async (channel, payload) => void (await sql.get('SELECT pg_notify(?, ?)', [channel, payload])),
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}
