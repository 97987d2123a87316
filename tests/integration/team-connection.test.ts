// Settings → Team's "Test connection" against a real PostgreSQL that asks for passwords: each way a shop's
// connection goes wrong is said in words that say what to do, and never with the password.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { connectionUrl, type TeamConnectionFields } from '../../common/team-connection.ts';
import type { ConnectionTest } from '../../electron/contract/schemas/team.ts';
import { testConnection } from '../../electron/services/team/connection-test.ts';
import { openTeamStore } from '../../electron/services/team/store-switch.ts';
import pg from 'pg';
import { createAuthorityFiles } from '../../electron/services/team/authority-files.ts';
import { startPgCluster, type PgCluster } from '../pg-cluster.ts';
import { makeShopCertificates } from '../tls-certificates.ts';

const PASSWORD = 'Shop-pw:with/odd@chars';
let cluster: PgCluster;
let shop: TeamConnectionFields;

before(async () => {
  cluster = await startPgCluster({ passwords: true });
  await cluster.createUser('shop', PASSWORD);
  await cluster.createUser('visitor', 'visitor-pw');
  const database = new URL(await cluster.createDatabase('shop')).pathname.slice(1);
  shop = { host: '127.0.0.1', port: cluster.port, database, user: 'shop', tls: false, authority: null };
});
after(() => cluster.stop());

const failed = (result: ConnectionTest) => {
  assert.equal(result.ok, false, JSON.stringify(result));
  assert.doesNotMatch(JSON.stringify(result), /Shop-pw/);
  return result as Extract<ConnectionTest, { ok: false }>;
};

test('a good connection says who answered, and whether PrintDesk has set up its store there yet', async () => {
  const fresh = await testConnection(connectionUrl(shop, PASSWORD));
  assert.ok(fresh.ok, JSON.stringify(fresh));
  assert.match(fresh.server, /^PostgreSQL \d+\.\d+/);
  assert.deepEqual([fresh.where, fresh.database, fresh.user, fresh.store], [`127.0.0.1:${cluster.port}/${shop.database}`, shop.database, 'shop', { kind: 'empty', orders: 0 }]);
  const store = await openTeamStore(connectionUrl(shop, PASSWORD));
  await store.close();
  const set = await testConnection(connectionUrl(shop, PASSWORD));
  assert.deepEqual(set.ok && set.store, { kind: 'printdesk', orders: 0 });
});

test('a wrong password, or none, is told apart from the rest', async () => {
  const wrong = failed(await testConnection(connectionUrl(shop, 'not-it')));
  assert.equal(wrong.reason, 'wrong-password');
  assert.equal(wrong.message, 'The server did not accept the password of “shop”. Check it, and the user name.');
  const none = failed(await testConnection(connectionUrl(shop, null)));
  assert.equal(none.reason, 'password-needed');
  assert.match(none.message, /asks for the password of “shop”/);
});

test('a database that is not there is named, with how to make it', async () => {
  const missing = failed(await testConnection(connectionUrl({ ...shop, database: 'printdesk_shop' }, PASSWORD)));
  assert.equal(missing.reason, 'no-database');
  assert.equal(missing.message, `There is no database “printdesk_shop” on 127.0.0.1:${cluster.port}. Check its name, or create it (createdb -O shop printdesk_shop).`);
});

test('nothing listening, a name that is nobody’s, and TLS a server does not offer', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  const closed = failed(await testConnection(connectionUrl({ ...shop, port }, PASSWORD)));
  assert.equal(closed.reason, 'unreachable');
  assert.match(closed.message, new RegExp(`^Nothing answers at 127\\.0\\.0\\.1:${port}\\. Check that PostgreSQL runs there`));
  const nobody = failed(await testConnection(connectionUrl({ ...shop, host: 'printdesk-db.invalid' }, PASSWORD)));
  assert.equal(nobody.reason, 'host-not-found');
  assert.match(nobody.message, /No server named “printdesk-db\.invalid” was found/);
  const tls = failed(await testConnection(connectionUrl({ ...shop, tls: true }, PASSWORD)));
  assert.equal(tls.reason, 'tls');
  assert.match(tls.message, /^The encrypted connection to 127\.0\.0\.1:\d+ failed: The server does not support SSL connections\.$/);
});

test('a user who may not create PrintDesk’s tables is told so before anything is switched', async () => {
  const visitor = { ...shop, user: 'visitor' };
  const result = failed(await testConnection(connectionUrl({ ...visitor, database: new URL(await cluster.createDatabase('shop')).pathname.slice(1) }, 'visitor-pw')));
  assert.equal(result.reason, 'no-permission');
  assert.match(result.message, /^“visitor” may not create tables in “test_\d+”, and PrintDesk sets up its own there at first use\. Make the user the database’s owner/);
});

test('a server whose certificate the shop\'s own authority signed: refused with what to do, then trusted once that authority is chosen', async () => {
  // Made out to the server's name only, as a shop's usually is: its address is then not a name it holds.
  const certificates = makeShopCertificates('DNS:localhost');
  const secured = await startPgCluster({ passwords: true, tls: certificates });
  try {
    await secured.createUser('shop', PASSWORD);
    const database = new URL(await secured.createDatabase('shop')).pathname.slice(1);
    const fields: TeamConnectionFields = { host: 'localhost', port: secured.port, database, user: 'shop', tls: true, authority: null };
    const untrusted = failed(await testConnection(connectionUrl(fields, PASSWORD)));
    assert.equal(untrusted.reason, 'tls');
    assert.match(untrusted.message, /^The encrypted connection to localhost:\d+ failed: .+\. Its certificate is not signed by an authority PrintDesk trusts: if your shop made its own, choose that authority’s certificate under Certificate authority\.$/);

    const authorities = createAuthorityFiles(mkdtempSync(join(tmpdir(), 'printdesk-authorities-')));
    const trusted = { ...fields, authority: certificates.authority };
    const url = connectionUrl(trusted, PASSWORD, authorities.pathFor(trusted.authority));
    const answered = await testConnection(url);
    assert.ok(answered.ok, JSON.stringify(answered));
    // The store itself opens on it, and its connections are encrypted.
    const store = await openTeamStore(url);
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
      assert.equal(rows[0].ssl, true);
    } finally {
      await client.end();
    }

    // The shop's authority, but the server entered by its address, which its certificate is not made out to.
    const misnamed = failed(await testConnection(connectionUrl({ ...trusted, host: '127.0.0.1' }, PASSWORD, authorities.pathFor(trusted.authority))));
    assert.equal(misnamed.reason, 'tls');
    assert.match(misnamed.message, /The certificate is made out to another name: enter the server by a name it holds\.$/);
  } finally {
    await secured.stop();
  }
});
