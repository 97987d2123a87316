// A throwaway PostgreSQL cluster for tests and benches: an initdb'd folder copied into a temporary one, a free
// port on 127.0.0.1, the socket in that folder, tuned to start fast and to keep nothing (fsync off: a crash loses
// it, which is the point), stopped and removed at the end. initdb and postgres refuse to run as root, so as root
// (CI) they run as Debian's `postgres` user, through setpriv.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface PgCluster {
  readonly port: number;
  /** A URL of a database on this cluster, as its superuser `postgres`. */
  url(database: string): string;
  /** A fresh, empty database's URL; `owner` owns it (else the superuser). */
  createDatabase(owner?: string): Promise<string>;
  /** A role that logs in with this password (checked only on a cluster started with `passwords`). */
  createUser(name: string, password: string): Promise<void>;
  /** A user's password changed, as a shop's administrator rotates it. */
  setPassword(name: string, password: string): Promise<void>;
  /** Stops the server (fast mode) and removes its folder. */
  stop(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

// Settings for speed only: nothing here is kept past the test run.
const settings = [
  "listen_addresses = '127.0.0.1'",
  'fsync = off',
  'synchronous_commit = off',
  'full_page_writes = off',
  'wal_level = minimal',
  'max_wal_senders = 0',
  'shared_buffers = 16MB',
  'max_connections = 200',
  'autovacuum = off',
  "timezone = 'UTC'",
];

/** Debian installs each major version under /usr/lib/postgresql/<n>/bin; take the newest. Else, what PATH finds. */
function newestVersion(): string | null {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((version) => existsSync(join(root, version, 'bin', 'initdb'))) : [];
  return versions.sort((a, b) => Number(b) - Number(a))[0] ?? null;
}

function binary(name: string): string {
  const version = newestVersion();
  return version ? join('/usr/lib/postgresql', version, 'bin', name) : name;
}

/** Runs a PostgreSQL program as the user it accepts: `postgres` when we are root, else ourselves. */
function runAsServerUser(program: string, args: string[], cwd: string): void {
  const [command, commandArgs] = asRoot
    ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', binary(program), ...args]]
    : [binary(program), args];
  // TZ spares initdb its search of the zone files; LC_ALL keeps the host's locale out of it.
  const result = spawnSync(command, commandArgs, { cwd, encoding: 'utf8', env: { ...process.env, TZ: 'UTC', LC_ALL: 'C' } });
  if (result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error(`PostgreSQL's ${program} was not found: install PostgreSQL (Debian: apt-get install postgresql).`);
  }
  if (result.status !== 0) throw new Error(`${program} ${args.join(' ')} failed: ${result.stderr || result.stdout || result.error}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('No free port was given');
  return address.port;
}

function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const ids = { uid: id('-u'), gid: id('-g') };
  if (!Number.isInteger(ids.uid) || ids.uid <= 0) throw new Error('As root, the test cluster runs as the `postgres` user, which does not exist: apt-get install postgresql.');
  return ids;
}

/**
 * Stops the cluster if this process ends without stop(), however it ends (SIGKILL included): a detached shell
 * waits for this process to go, stops the server at once (SIGQUIT) and removes its folder.
 */
function watchOver(dir: string, data: string): () => void {
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done`,
    `pid=$(head -n 1 '${data}/postmaster.pid' 2>/dev/null)`,
    'if [ -n "$pid" ]; then kill -QUIT "$pid" 2>/dev/null; while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; fi',
    `rm -rf '${dir}'`,
  ].join('\n');
  const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  watchdog.unref();
  // An ordinary exit stops the server at once; the watchdog then removes the folder.
  const onExit = () => {
    try {
      process.kill(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGQUIT');
    } catch {
      // Not started, or gone already.
    }
  };
  process.on('exit', onExit);
  return () => {
    process.off('exit', onExit);
    if (watchdog.pid) process.kill(watchdog.pid, 'SIGKILL');
  };
}

/**
 * A freshly initialised data folder, made once per major version and user and copied for each cluster: initdb
 * takes seconds, a copy a fraction of one. Built aside and renamed into place whole, so a folder found is complete.
 */
function initialisedTemplate(owner: { uid: number; gid: number } | null): string {
  const template = join(tmpdir(), `printdesk-pg-template-${newestVersion() ?? 'path'}-${owner ? 'postgres' : process.getuid?.()}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const building = mkdtempSync(join(tmpdir(), 'printdesk-pg-initdb-'));
  try {
    if (owner) chownSync(building, owner.uid, owner.gid);
    runAsServerUser('initdb', ['-D', join(building, 'data'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], building);
    try {
      renameSync(join(building, 'data'), template);
    } catch (error) {
      // Another test process made it first: use theirs.
      if (!existsSync(join(template, 'PG_VERSION'))) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return template;
}

async function startServer(dir: string, data: string): Promise<number> {
  let lastError: unknown;
  // The port is free when asked, but another process may take it before the server binds: try another.
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    try {
      runAsServerUser('pg_ctl', ['start', '-w', '-t', '120', '-D', data, '-l', join(dir, 'server.log'), '-o', `-p ${port}`], dir);
      return port;
    } catch (error) {
      lastError = new Error(`${(error as Error).message}\n${readFileSync(join(dir, 'server.log'), 'utf8').slice(-2000)}`);
    }
  }
  throw lastError;
}

/**
 * `durable`: commits reach the disk as a production server's do (fsync, synchronous commit, full pages), for a
 * bench set beside SQLite's FULL commits; tests keep nothing and need none of it.
 */
export async function startPgCluster(options: { durable?: boolean; passwords?: boolean; tls?: { certificate: string; key: string } } = {}): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'printdesk-pg-'));
  const data = join(dir, 'data');
  const owner = asRoot ? postgresUserIds() : null;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  let unwatch = () => {};
  try {
    // cp -a keeps the owner (postgres) and the 0700 the server insists on.
    const copied = spawnSync('cp', ['-a', initialisedTemplate(owner), data], { encoding: 'utf8' });
    if (copied.status !== 0) throw new Error(`Copying the initialised cluster failed: ${copied.stderr || copied.error}`);
    // The socket in our folder: no clash with a system server's, and nothing left in /var/run.
    const durability = options.durable ? ['fsync = on', 'synchronous_commit = on', 'full_page_writes = on'] : [];
    // `tls`: encrypted connections offered with this certificate (the server insists its key be its own, 0600).
    const tls = options.tls ? ['ssl = on', `ssl_cert_file = 'server.crt'`, `ssl_key_file = 'server.key'`] : [];
    if (options.tls) {
      for (const [name, text] of [['server.crt', options.tls.certificate], ['server.key', options.tls.key]]) {
        writeFileSync(join(data, name), text, { mode: 0o600 });
        if (owner) chownSync(join(data, name), owner.uid, owner.gid);
      }
    }
    appendFileSync(data + '/postgresql.conf', [...settings, ...durability, ...tls, `unix_socket_directories = '${dir}'`, ''].join('\n'));
    // `passwords`: every user but the superuser the tests administer with signs in with a password, as at a shop.
    if (options.passwords) {
      const hba = join(data, 'pg_hba.conf');
      writeFileSync(hba, `host all postgres 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
    }
    unwatch = watchOver(dir, data);
    const port = await startServer(dir, data);
    const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
    let databases = 0;
    let admin: Promise<{ client: pg.Client; strategy: string }> | undefined;
    const connectAdmin = async () => {
      const client = new pg.Client({ connectionString: url('postgres') });
      client.on('error', () => undefined);
      await client.connect();
      // A file copy of the empty template is the quicker way, from PostgreSQL 15 on.
      const version = Number((await client.query('SHOW server_version_num')).rows[0].server_version_num);
      return { client, strategy: version >= 150000 ? ' STRATEGY FILE_COPY' : '' };
    };
    return {
      port,
      url,
      async createDatabase(owner) {
        const name = `test_${++databases}`;
        admin ??= connectAdmin();
        const { client, strategy } = await admin;
        await client.query(`CREATE DATABASE ${name}${strategy}${owner ? ` OWNER ${client.escapeIdentifier(owner)}` : ''}`);
        return url(name);
      },
      async createUser(name, password) {
        admin ??= connectAdmin();
        const { client } = await admin;
        await client.query(`CREATE ROLE ${client.escapeIdentifier(name)} LOGIN PASSWORD ${client.escapeLiteral(password)}`);
      },
      async setPassword(name, password) {
        admin ??= connectAdmin();
        const { client } = await admin;
        await client.query(`ALTER ROLE ${client.escapeIdentifier(name)} PASSWORD ${client.escapeLiteral(password)}`);
      },
      async stop() {
        unwatch();
        try {
          await (await admin?.catch(() => undefined))?.client.end();
          runAsServerUser('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', data], dir);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    unwatch();
    const pidFile = join(data, 'postmaster.pid');
    if (existsSync(pidFile)) runAsServerUser('pg_ctl', ['stop', '-m', 'immediate', '-D', data], dir);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
