// Why a connection to a team's PostgreSQL failed, in words that say what to do: the server's SQLSTATE codes
// and the system's network errors sorted into the few cases a person can act on. Never with the password:
// neither PostgreSQL nor the system repeats one, and `withoutSecret` takes out any that a message might hold.
import pg from 'pg';
import type { CONNECTION_FAILURES } from '../../contract/schemas/team.ts';

export type ConnectionFailureReason = (typeof CONNECTION_FAILURES)[number];

export interface ConnectionFailure {
  reason: ConnectionFailureReason;
  message: string;
}

/** Where a connection goes and as whom, read from its URL: what the words name. */
export interface ConnectionTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  /** whether the URL carries a password (without one the driver tries PGPASSWORD and ~/.pgpass) */
  hasPassword: boolean;
}

/** The target of a URL as the driver reads it; throws when it is not one. */
export function targetOf(url: string): ConnectionTarget {
  const client = new pg.Client({ connectionString: url });
  let hasPassword = false;
  try {
    hasPassword = new URL(url).password !== '';
  } catch {
    // key=value pairs: pg reads them, and a password among them is said nowhere.
  }
  return { host: client.host, port: client.port, database: client.database ?? '', user: client.user ?? '', hasPassword };
}

/** The message with the URL's password, if it holds one, replaced by ***. */
export function withoutSecret(message: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // Not a URL: pg reads it as key=value pairs, whose password is no part of any message it makes.
  }
  return password ? message.split(password).join('***') : message;
}

/** What went wrong, in the system's words: a refused connection to a name with two addresses is an AggregateError without a message. */
export function reasonText(error: unknown): string {
  const { message, code, errors } = error as Error & { code?: string; errors?: Error[] };
  return message || errors?.map((each) => each.message).join('; ') || code || String(error);
}

const NETWORK: Record<string, ConnectionFailureReason> = {
  ENOTFOUND: 'host-not-found',
  EAI_AGAIN: 'host-not-found',
  ECONNREFUSED: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ECONNRESET: 'unreachable',
  ETIMEDOUT: 'timeout',
};

function networkCode(error: unknown): string | undefined {
  const { code, errors } = error as { code?: string; errors?: { code?: string }[] };
  return code ?? errors?.find((each) => each.code)?.code;
}

function reasonOf(error: unknown, target: ConnectionTarget): ConnectionFailureReason {
  const text = reasonText(error);
  if (error instanceof pg.DatabaseError) {
    if (error.code === '28P01') return target.hasPassword ? 'wrong-password' : 'password-needed';
    if (error.code === '28000') return /SSL|encryption/i.test(text) ? 'tls' : 'not-allowed';
    if (error.code === '3D000') return 'no-database';
    if (error.code === '42501') return 'no-permission';
    return 'other';
  }
  // SCRAM asks the client for a password it was not given.
  if (/client password must be a string|password must be a string|no password/i.test(text)) return 'password-needed';
  if (/SSL|TLS|certificate|self[- ]signed/i.test(text)) return 'tls';
  if (/timeout|timed out/i.test(text)) return 'timeout';
  return NETWORK[networkCode(error) ?? ''] ?? 'other';
}

/** Node's codes for a certificate no trusted authority signed. */
const UNTRUSTED = new Set(['SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE']);

/** What to do about a certificate the check refused, after the system's own words (whose remedy is Node's, see tlsDetail). */
function certificateAdvice(error: unknown): string {
  const code = networkCode(error) ?? '';
  if (UNTRUSTED.has(code)) return ' Its certificate is not signed by an authority PrintDesk trusts: if your shop made its own, choose that authority’s certificate under Certificate authority.';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return ' The certificate is made out to another name: enter the server by a name it holds.';
  if (code === 'CERT_HAS_EXPIRED') return ' The server’s certificate has expired: its administrator renews it.';
  return '';
}

/** The system's words on a refused certificate, without the remedy Node adds for its own users (run it with --use-system-ca): not one a PrintDesk user can take. */
const tlsDetail = (detail: string) => detail.replace(/; if the root CA is installed locally.*$/s, '').replace(/\.$/, '');

/** The failure's kind and what to tell the person who entered the connection. */
export function connectionFailure(error: unknown, target: ConnectionTarget, url = ''): ConnectionFailure {
  const reason = reasonOf(error, target);
  const { host, port, database, user } = target;
  const detail = withoutSecret(reasonText(error), url);
  const words: Record<ConnectionFailureReason, string> = {
    'invalid-address': 'This is not a PostgreSQL address (postgres://user@server:5432/database).',
    'host-not-found': `No server named “${host}” was found. Check the name, or enter its IP address.`,
    unreachable: `Nothing answers at ${host}:${port}. Check that PostgreSQL runs there, on that port, and accepts connections from other computers (listen_addresses).`,
    timeout: `${host}:${port} did not answer in time. The server may be off, or a firewall may be in the way.`,
    'password-needed': `The server asks for the password of “${user}”: enter it.`,
    'wrong-password': `The server did not accept the password of “${user}”. Check it, and the user name.`,
    'not-allowed': `The server does not let “${user}” connect to “${database}” from this computer (${detail}). Its administrator allows it in pg_hba.conf.`,
    'no-database': `There is no database “${database}” on ${host}:${port}. Check its name, or create it (createdb -O ${user} ${database}).`,
    'no-permission': `“${user}” may not use the database “${database}” (${detail}).`,
    tls: `The encrypted connection to ${host}:${port} failed: ${tlsDetail(detail)}.${certificateAdvice(error)}`,
    'newer-store': detail,
    other: `${host}:${port} answered with an error: ${detail}.`,
  };
  return { reason, message: words[reason] };
}
