// Settings → Team's rules, without a server: the connection's fields as the form and the contract check them,
// a pasted postgres:// address split into them, the URL made from them, the choice and its password as kept,
// and the plan of what a move copies against the tables the migrations make.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { certificatesIn, connectionFromUrl, connectionProblems, connectionUrl, whereOf, type TeamConnectionFields } from '../../common/team-connection.ts';
import { createAuthorityFiles } from '../../electron/services/team/authority-files.ts';
import { StoreChoiceInput, TeamConnection } from '../../electron/contract/schemas/team.ts';
import { createMemoryBox } from '../../electron/services/storage/secret-box.ts';
import { createMemoryStore } from '../../electron/services/storage/memory-store.ts';
import { BATCHES, DRAFTS, KEYED_TABLES, migratedColumns, NOT_MOVED } from '../../electron/services/team/moved-tables.ts';
import { createStoreChoice, type StorePassword } from '../../electron/services/team/store-choice.ts';

const shop: TeamConnectionFields = { host: 'db.shop.lan', port: 5432, database: 'printdesk', user: 'shop', tls: false, authority: null };
const authorities = () => createAuthorityFiles(join(mkdtempSync(join(tmpdir(), 'printdesk-authorities-')), 'team-authorities'));
/** Not a real certificate: the form and the host only look for its PEM frame; the driver is what reads it. */
const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';

test('each field says what is wrong with it, in the words the form shows', () => {
  assert.deepEqual(connectionProblems(shop), {});
  assert.deepEqual(connectionProblems({ host: '', port: 0, database: ' ', user: '', tls: false, authority: null }), {
    host: 'Enter the server’s name or address',
    port: 'A port is a number from 1 to 65535 (PostgreSQL’s is usually 5432)',
    database: 'Enter the database’s name',
    user: 'Enter the user PrintDesk connects as',
  });
  for (const host of ['192.168.1.20', 'localhost', '::1', '[fe80::1]', 'db-1.shop.example']) assert.deepEqual(connectionProblems({ ...shop, host }), {}, host);
  for (const host of ['db shop', 'db.lan/printdesk', 'shop@db.lan', '-db']) assert.match(connectionProblems({ ...shop, host }).host ?? '', /only the server’s name or address/, host);
  assert.match(connectionProblems({ ...shop, host: 'postgres://shop@db/x' }).host ?? '', /Paste the whole postgres:\/\/ address/);
  assert.equal(connectionProblems({ ...shop, port: 65_536 }).port?.startsWith('A port is'), true);
  assert.equal(connectionProblems({ ...shop, database: 'é'.repeat(32) }).database, 'PostgreSQL names are at most 63 bytes long', '64 bytes in 32 letters');
  assert.deepEqual(connectionProblems({ ...shop, database: 'é'.repeat(31) }), {});
});

test('the contract checks the same, trimmed, and takes a choice of this computer or a team', () => {
  assert.deepEqual(TeamConnection.parse({ host: ' db.shop.lan ', database: 'printdesk ', user: ' shop' }), shop, 'the port and TLS default');
  const refused = TeamConnection.safeParse({ ...shop, host: 'db shop' });
  assert.ok(!refused.success);
  assert.deepEqual(refused.error.issues.map((issue) => [issue.path.join('.'), issue.message]), [['host', 'Enter only the server’s name or address, such as db.shop.lan or 192.168.1.20']]);
  assert.ok(StoreChoiceInput.safeParse({ kind: 'local' }).success);
  assert.ok(StoreChoiceInput.safeParse({ kind: 'team', connection: shop, password: 'x' }).success);
  assert.ok(!StoreChoiceInput.safeParse({ kind: 'team', connection: { ...shop, port: 'x' } }).success);
  assert.ok(!StoreChoiceInput.safeParse({ kind: 'team', connection: shop, password: 'x'.repeat(1025) }).success);
});

test('a pasted address fills the fields, its password kept apart; the URL made from them reads back the same', () => {
  const pasted = connectionFromUrl('postgresql://ada%40shop:p%40ss%3Aw%2Frd@[fe80::1]:6432/print%20desk?sslmode=require');
  assert.deepEqual(pasted, { fields: { host: 'fe80::1', port: 6432, database: 'print desk', user: 'ada@shop', tls: true, authority: null }, password: 'p@ss:w/rd' });
  assert.deepEqual(connectionFromUrl('postgres://shop@db.shop.lan/printdesk'), { fields: shop, password: '' });
  assert.equal(connectionFromUrl('db.shop.lan'), null);
  const url = connectionUrl(pasted!.fields, pasted!.password);
  assert.equal(url, 'postgres://ada%40shop:p%40ss%3Aw%2Frd@[fe80::1]:6432/print%20desk?sslmode=verify-full');
  assert.deepEqual(connectionFromUrl(url), pasted);
  assert.equal(connectionUrl(shop, null), 'postgres://shop@db.shop.lan:5432/printdesk', 'without a password: PGPASSWORD or ~/.pgpass');
  assert.equal(whereOf(pasted!.fields), '[fe80::1]:6432/print desk');
});

test('the choice is kept in the preferences without its password, which is kept for the same user on the same server only', async () => {
  const store = createMemoryStore();
  const passwords = createMemoryBox<StorePassword>('in memory');
  const choice = createStoreChoice({ store, passwords, authorities: authorities() });
  assert.deepEqual(await choice.resolve(), { kind: 'local', source: 'default' });
  await choice.save({ kind: 'team', connection: shop, password: 'secret-1' });
  assert.doesNotMatch(JSON.stringify(store.get('teamStore')), /secret-1/);
  assert.deepEqual(await choice.resolve(), { kind: 'team', url: 'postgres://shop:secret-1@db.shop.lan:5432/printdesk', where: 'db.shop.lan:5432/printdesk', source: 'settings' });
  assert.deepEqual(await choice.savedConnection(), { connection: shop, passwordSaved: true });
  // Another database on the same server: the same password. Another server: never sent there.
  assert.equal(await choice.urlFor({ connection: { ...shop, database: 'other' } }), 'postgres://shop:secret-1@db.shop.lan:5432/other');
  assert.equal(await choice.urlFor({ connection: { ...shop, host: 'db.shop.lam' } }), 'postgres://shop@db.shop.lam:5432/printdesk');
  assert.equal(await choice.urlFor({ connection: { ...shop, user: 'ada' } }), 'postgres://ada@db.shop.lan:5432/printdesk');
  // Back to this computer: the fields stay for the form.
  await choice.save({ kind: 'local' });
  assert.deepEqual(await choice.resolve(), { kind: 'local', source: 'settings' });
  assert.deepEqual(await choice.savedConnection(), { connection: shop, passwordSaved: true });
  // The environment wins.
  const overridden = createStoreChoice({ store, passwords, override: 'postgres://x@y/z', authorities: authorities() });
  assert.equal(overridden.overridden, true);
  assert.deepEqual(await overridden.resolve(), { kind: 'team', url: 'postgres://x@y/z', where: '', source: 'environment' });
  // A preference spoilt by hand reads as this computer's store.
  store.set('teamStore', { kind: 'team', connection: { host: 'db shop' } });
  assert.deepEqual(await choice.resolve(), { kind: 'local', source: 'default' });
});

test('a certificate authority of the shop\'s own is checked as a PEM, and reaches the driver as a private file named by its contents', async () => {
  assert.equal(certificatesIn(PEM + PEM), 2);
  assert.deepEqual(connectionProblems({ ...shop, tls: true, authority: PEM }), {});
  assert.match(connectionProblems({ ...shop, tls: true, authority: 'ssh-rsa AAAAB3Nza shop@db' }).authority ?? '', /holds no certificate/);
  assert.match(connectionProblems({ ...shop, tls: true, authority: PEM.repeat(2000) }).authority ?? '', /too large/);
  assert.ok(!TeamConnection.safeParse({ ...shop, tls: true, authority: 'not a certificate' }).success);
  assert.equal(TeamConnection.parse({ host: 'db', database: 'd', user: 'u' }).authority, null, 'a choice saved before authorities has none');

  const choice = createStoreChoice({ store: createMemoryStore(), passwords: createMemoryBox<StorePassword>('in memory'), authorities: authorities() });
  const secured = { ...shop, tls: true, authority: PEM };
  await choice.save({ kind: 'team', connection: secured, password: 'secret-1' });
  const resolved = await choice.resolve();
  assert.equal(resolved.kind, 'team');
  const url = new URL(resolved.kind === 'team' ? resolved.url : '');
  assert.equal(url.searchParams.get('sslmode'), 'verify-full');
  const file = url.searchParams.get('sslrootcert')!;
  assert.equal(readFileSync(file, 'utf8'), PEM);
  if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o077, 0, 'this user\'s alone');
  // Another certificate tried in the form has a file of its own; the saved one's stays as it was.
  const tried = new URL(await choice.urlFor({ connection: { ...secured, authority: PEM.replace('MIIB', 'MIIC') } })).searchParams.get('sslrootcert')!;
  assert.notEqual(tried, file);
  assert.equal(readFileSync(file, 'utf8'), PEM);
  // Without TLS the authority is kept for the form, and no file is named.
  assert.equal(await choice.urlFor({ connection: { ...secured, tls: false } }), 'postgres://shop:secret-1@db.shop.lan:5432/printdesk');
});

test('the move names every table the shared domains’ migrations make, and only those', async () => {
  const planned = [...KEYED_TABLES.map((t) => t.table), BATCHES.table, ...BATCHES.children.map((c) => c.table), DRAFTS.table, ...DRAFTS.children.map((c) => c.table), ...NOT_MOVED];
  assert.deepEqual([...(await migratedColumns()).keys()].sort(), [...planned].sort());
  const columns = await migratedColumns();
  for (const spec of [BATCHES, DRAFTS]) {
    assert.ok(columns.get(spec.table)?.includes('id'), `${spec.table} is keyed by id`);
    for (const child of spec.children) assert.ok(columns.get(child.table)?.includes(child.parent), `${child.table}.${child.parent}`);
  }
  for (const keyed of KEYED_TABLES) for (const column of keyed.key) assert.ok(columns.get(keyed.table)?.includes(column), `${keyed.table}.${column}`);
  assert.ok(!columns.get('drafts')?.includes('seq'), 'PostgreSQL’s insertion order is the target’s own');
});
