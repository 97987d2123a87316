// Pure (no Node, no DOM): a team store's connection as Settings → Team asks for it, field by field. The form
// checks it as the user types, the contract's schema with the same words, and the host makes the URL the
// driver opens from it. Fields rather than one URL: the password then has a field of its own that is never
// shown back, and the rest (server, port, database, user) can be shown and changed without it.

export interface TeamConnectionFields {
  host: string;
  port: number;
  database: string;
  user: string;
  /** an encrypted connection, the server's certificate checked against the authorities PrintDesk trusts */
  tls: boolean;
  /**
   * The certificate (PEM) of the authority that signed the server's, trusted instead of the public ones:
   * a shop's own server usually has a certificate its administrator made, which no public authority signed.
   */
  authority: string | null;
}

export type TeamConnectionField = 'host' | 'port' | 'database' | 'user' | 'authority';

/** The most text an authority's file may hold: a chain of a few certificates is a few kilobytes. */
export const MAX_AUTHORITY_CHARS = 64 * 1024;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** How many certificates a PEM text holds. */
export function certificatesIn(text: string): number {
  return text.match(PEM_CERTIFICATE)?.length ?? 0;
}

export const DEFAULT_POSTGRES_PORT = 5432;

/** PostgreSQL cuts names longer than this (NAMEDATALEN - 1), in bytes. */
const MAX_NAME_BYTES = 63;

const utf8Length = (text: string) => encodeURIComponent(text).replace(/%[0-9A-F]{2}/gi, '.').length;

/** A name or an address: letters, digits, dots and dashes, or an IPv6 address (with or without brackets). */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?|\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(?:%[A-Za-z0-9]+)?\]?)$/;

/** What is wrong with each field, in words for the form; empty when the connection can be tried. */
export function connectionProblems(fields: TeamConnectionFields): Partial<Record<TeamConnectionField, string>> {
  const problems: Partial<Record<TeamConnectionField, string>> = {};
  const host = fields.host.trim();
  if (!host) problems.host = 'Enter the server’s name or address';
  else if (/^postgres(ql)?:\/\//i.test(host)) problems.host = 'Paste the whole postgres:// address into Server: it is split into the fields';
  else if (!HOST.test(host) || host.length > 253) problems.host = 'Enter only the server’s name or address, such as db.shop.lan or 192.168.1.20';
  if (!Number.isInteger(fields.port) || fields.port < 1 || fields.port > 65_535) problems.port = 'A port is a number from 1 to 65535 (PostgreSQL’s is usually 5432)';
  const database = fields.database.trim();
  if (!database) problems.database = 'Enter the database’s name';
  else if (utf8Length(database) > MAX_NAME_BYTES) problems.database = 'PostgreSQL names are at most 63 bytes long';
  const user = fields.user.trim();
  if (!user) problems.user = 'Enter the user PrintDesk connects as';
  else if (utf8Length(user) > MAX_NAME_BYTES) problems.user = 'PostgreSQL names are at most 63 bytes long';
  const authority = fields.authority ?? '';
  if (authority.length > MAX_AUTHORITY_CHARS) problems.authority = 'This file is too large for a certificate: choose the authority’s certificate (.pem or .crt)';
  // Non-breaking hyphens (U+2011): the marker is not split across lines.
  else if (authority && certificatesIn(authority) === 0) problems.authority = 'This file holds no certificate: choose the authority’s certificate, a .pem or .crt file that begins with ‑‑‑‑‑BEGIN CERTIFICATE‑‑‑‑‑';
  return problems;
}

/** `host:port/database`, for people to read: the user and the password are no part of it. */
export function whereOf(fields: Pick<TeamConnectionFields, 'host' | 'port' | 'database'>): string {
  const host = fields.host.trim();
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${bracketed}:${fields.port}/${fields.database.trim()}`;
}

/**
 * The driver's URL. Without a password, the driver looks in PGPASSWORD and ~/.pgpass, as PostgreSQL's own
 * tools do. TLS is verify-full: encrypted, and the server is who its certificate says, signed by the
 * public authorities Node.js trusts, or by the one in `authorityFile` (the fields' authority, written to a
 * file: the driver reads it from there at every connection, as libpq's sslrootcert).
 */
export function connectionUrl(fields: TeamConnectionFields, password?: string | null, authorityFile?: string | null): string {
  const user = encodeURIComponent(fields.user.trim());
  const secret = password ? `:${encodeURIComponent(password)}` : '';
  const tls = fields.tls ? `?sslmode=verify-full${authorityFile ? `&sslrootcert=${encodeURIComponent(authorityFile)}` : ''}` : '';
  return `postgres://${user}${secret}@${whereOf({ ...fields, database: encodeURIComponent(fields.database.trim()) })}${tls}`;
}

/**
 * A postgres:// address pasted into the form, as its fields and its password (which goes in the password
 * field, never into one shown). Null when the text is not such an address.
 */
export function connectionFromUrl(text: string): { fields: TeamConnectionFields; password: string } | null {
  const trimmed = text.trim();
  if (!/^postgres(ql)?:\/\//i.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const port = url.port ? Number(url.port) : DEFAULT_POSTGRES_PORT;
  const sslmode = /[?&]sslmode=([^&#]*)/.exec(url.search)?.[1] ?? '';
  return {
    fields: {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port,
      database: decode(url.pathname.replace(/^\//, '')),
      user: decode(url.username),
      tls: ['require', 'verify-ca', 'verify-full'].includes(sslmode),
      // An address names no certificate the form could keep (sslrootcert is a file of that computer's).
      authority: null,
    },
    password: decode(url.password),
  };
}
