// Settings → Team through the host as every front door boots it: the services restarted on a team's store
// and back, the choice kept across restarts in the preferences file and the password in the keychain's box
// only, a saved store that cannot be opened at start, and PRINTDESK_STORE winning over the choice.
import assert from 'node:assert/strict';
import Conf from 'conf';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test, type TestContext } from 'node:test';
import type { Result } from '../../electron/contract/channels.ts';
import type { AppInfo, SessionState } from '../../electron/contract/channels.ts';
import type { Draft } from '../../electron/contract/schemas/orders.ts';
import type { ConnectionTest, MoveReport, TeamState } from '../../electron/contract/schemas/team.ts';
import { bootHost, type Booted } from '../../electron/services/boot.ts';
import { createMemoryVault } from '../../electron/services/session/token-vault.ts';
import { createPreferences } from '../../electron/services/storage/preferences.ts';
import { createSafeStorageBox, type SafeStorageLike } from '../../electron/services/storage/secret-box.ts';
import { StorePassword, type PasswordBox } from '../../electron/services/team/store-choice.ts';
import { emptyOrderContent } from '../../common/orders/empty.ts';
import type { TeamConnectionFields } from '../../common/team-connection.ts';
import { makeTempDir, startTestSandbox, type TestSandbox } from '../../sandbox/testing.ts';
import { startPgCluster, type PgCluster } from '../pg-cluster.ts';

const PASSWORD = 'team-secret-Pw1';
let cluster: PgCluster;
let sandbox: TestSandbox;
let connection: TeamConnectionFields;

before(async () => {
  [cluster, sandbox] = await Promise.all([startPgCluster({ passwords: true }), startTestSandbox()]);
  await cluster.createUser('shop', PASSWORD);
  connection = { host: '127.0.0.1', port: cluster.port, database: new URL(await cluster.createDatabase('shop')).pathname.slice(1), user: 'shop', tls: false, authority: null };
});
after(async () => {
  await Promise.all([cluster.stop(), sandbox.dispose()]);
});

const value = <T>(result: Result<unknown>): T => {
  assert.ok(result.ok, JSON.stringify(result));
  return result.value as T;
};

/** A keychain that really hides what it keeps (not the plain text on disk). */
const keychain: SafeStorageLike = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptString: (plain) => Buffer.from(Buffer.from(plain).map((b) => b ^ 0x5a)),
  decryptString: (data) => Buffer.from(data.map((b) => b ^ 0x5a)).toString(),
};

/** One computer: its data folder, preferences file and keychain box, booted as a front door does (again after a restart). */
function computer(t: TestContext) {
  const dir = makeTempDir('printdesk-team-switch-');
  const passwords: PasswordBox = createSafeStorageBox(StorePassword, keychain, join(dir, 'team-store.bin'), 'no keyring');
  const vault = createMemoryVault('t');
  const open: Booted[] = [];
  t.after(async () => {
    for (const booted of open) await booted.close().catch(() => undefined);
  });
  const config = () => new Conf({ cwd: dir, configName: 'config', projectName: 'printdesk' });
  return {
    dir,
    config,
    async boot(options: { teamPasswords?: PasswordBox; teamStore?: string } = {}) {
      const store = config();
      createPreferences(store).setService({ kind: 'custom', baseUrl: sandbox.baseUrl });
      const booted = await bootHost({ mode: 'browser', version: 't', userDataDir: dir, store, vault, sandbox: false, timeoutMs: 5_000, teamPasswords: passwords, ...options });
      open.push(booted);
      return { booted, call: async <T>(channel: string, input?: unknown) => value<T>(await booted.host.invoke(channel, input)), invoke: (channel: string, input?: unknown) => booted.host.invoke(channel, input) };
    },
  };
}

const draftFields = (firstName: string) => ({
  recipient: { firstName, lastName: 'Hopper', streetAddress: 'Keizersgracht 1', postal: '1015 CJ', city: 'Amsterdam', country: 'NL', countryState: '', phoneNumber: '', email: 'grace@example.com' },
  models: [],
  shippingMethod: null,
  orderContent: emptyOrderContent(),
});

test('switching to a team store and back: the services restart there, the session goes on, and the choice outlives a restart', { timeout: 120_000 }, async (t) => {
  const here = computer(t);
  const projectId = (await sandbox.operator.listProjects())[0].projectId;
  let app = await here.boot();
  await app.call('session:signIn', sandbox.demoAccount);
  const local = await app.call<Draft>('drafts:save', { projectId, fields: draftFields('Grace') });
  const before = await app.call<TeamState>('team:get');
  assert.deepEqual([before.current, before.saved, before.waitingHere], [{ kind: 'local', where: null, source: 'default' }, null, 0]);

  // A wrong password is refused before anything changes.
  const wrong = await app.call<ConnectionTest>('team:test', { connection, password: 'not-it' });
  assert.equal(wrong.ok || wrong.reason, 'wrong-password');
  const refused = await app.invoke('team:use', { kind: 'team', connection, password: 'not-it' });
  assert.ok(!refused.ok && refused.error.details?.reason === 'wrong-password', JSON.stringify(refused));
  assert.equal((await app.call<AppInfo>('app:info')).store?.kind, 'local');

  // The work here goes into the team store first; then the services move there.
  const moved = await app.call<MoveReport>('team:moveLocalWork', { target: { connection, password: PASSWORD } });
  assert.equal(moved.copied.orders, 1);
  const onTeam = await app.call<TeamState>('team:use', { kind: 'team', connection, password: PASSWORD });
  assert.deepEqual(onTeam.current, { kind: 'team', where: `127.0.0.1:${cluster.port}/${connection.database}`, source: 'settings' });
  assert.deepEqual(onTeam.saved, { connection, passwordSaved: true });
  assert.deepEqual((await app.call<AppInfo>('app:info')).store, { kind: 'team', where: `127.0.0.1:${cluster.port}/${connection.database}` });
  assert.equal((await app.call<SessionState>('session:get')).status, 'signed-in', 'the session goes on');
  assert.deepEqual((await app.call<Draft[]>('drafts:list', { projectId })).map((d) => d.id), [local.id]);
  const onlyOnTeam = await app.call<Draft>('drafts:save', { projectId, fields: draftFields('Ada') });
  // What signing out would leave waiting is in the team's store, for the shop's workstations to send.
  assert.deepEqual(await app.call('outbox:waiting', { projectId }), { orders: 0, projects: 0, here: 0, shared: true });

  // The password is in the keychain's box, and in nothing else written or answered.
  assert.doesNotMatch(readFileSync(join(here.dir, 'config.json'), 'utf8'), new RegExp(PASSWORD));
  assert.doesNotMatch(readFileSync(join(here.dir, 'team-store.bin'), 'latin1'), new RegExp(PASSWORD));
  assert.doesNotMatch(JSON.stringify([onTeam, await app.call('team:get'), await app.call('app:info')]), new RegExp(PASSWORD));

  // A restart: on the team store again, with the password kept.
  await app.booted.close();
  app = await here.boot();
  await app.call('session:signIn', sandbox.demoAccount);
  assert.equal((await app.call<AppInfo>('app:info')).store?.kind, 'team');
  assert.equal((await app.call<Draft[]>('drafts:list', { projectId })).length, 2);

  // Back to this computer: its drafts were left in place; the team's new one stays on the team.
  const back = await app.call<TeamState>('team:use', { kind: 'local' });
  assert.deepEqual(back.current, { kind: 'local', where: null, source: 'settings' });
  assert.deepEqual(back.saved, { connection, passwordSaved: true }, 'the connection is kept for the form');
  assert.deepEqual((await app.call<Draft[]>('drafts:list', { projectId })).map((d) => d.id), [local.id]);
  assert.ok(!(await app.call<Draft[]>('drafts:list', { projectId })).some((d) => d.id === onlyOnTeam.id));
  assert.equal((await app.call<{ shared: boolean }>('outbox:waiting', { projectId: null })).shared, false);
  await app.booted.close();
  app = await here.boot();
  assert.equal((await app.call<AppInfo>('app:info')).store?.kind, 'local');
});

test('a saved team store that cannot be opened at start: the app opens on this computer’s store and says why', { timeout: 60_000 }, async (t) => {
  const here = computer(t);
  let app = await here.boot();
  await app.call('team:use', { kind: 'team', connection, password: PASSWORD });
  await app.booted.close();
  // As browser mode after a restart: the password was kept in memory only, and is gone.
  app = await here.boot({ teamPasswords: createSafeStorageBox(StorePassword, { ...keychain, isEncryptionAvailable: () => false }, join(here.dir, 'x.bin'), 'no keyring') });
  const info = await app.call<AppInfo>('app:info');
  assert.equal(info.store?.kind, 'local');
  assert.match(info.store?.problem ?? '', new RegExp(`^The team store at 127\\.0\\.0\\.1:${cluster.port}/test_\\d+ could not be opened: The server asks for the password of “shop”: enter it\\.$`));
  const state = await app.call<TeamState>('team:get');
  assert.deepEqual([state.current.source, state.problem, state.passwordStorage], ['settings', info.store?.problem, { persistent: false, reason: 'no keyring' }]);
  // Entering it again in Settings puts the app back on the team's store.
  assert.equal((await app.call<TeamState>('team:use', { kind: 'team', connection, password: PASSWORD })).current.kind, 'team');
  assert.equal((await app.call<AppInfo>('app:info')).store?.problem, undefined);
});

test('PRINTDESK_STORE wins over the choice in Settings, which then cannot change it', { timeout: 60_000 }, async (t) => {
  const here = computer(t);
  const url = `postgres://shop:${encodeURIComponent(PASSWORD)}@127.0.0.1:${cluster.port}/${connection.database}`;
  const app = await here.boot({ teamStore: url });
  const state = await app.call<TeamState>('team:get');
  assert.deepEqual(state.current, { kind: 'team', where: `127.0.0.1:${cluster.port}/${connection.database}`, source: 'environment' });
  assert.doesNotMatch(JSON.stringify(state), new RegExp(PASSWORD));
  const refused = await app.invoke('team:use', { kind: 'local' });
  assert.ok(!refused.ok && /PRINTDESK_STORE/.test(refused.error.message));
});
