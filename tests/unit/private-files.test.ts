// Each place PrintDesk writes gives its file 0600 and its folder 0700 itself, whatever the process's umask
// (this test runs with the usual 022), and takes back what an older install left open to others.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { createModelCache } from '../../electron/services/library/model-cache.ts';
import { createPrivateFileOnce, makePrivateDir, preparePrivateDatabase, writePrivateFile } from '../../electron/services/private-files.ts';
import { receiveInto } from '../../sandbox/upload-files.ts';
import { storeModelFile } from '../../sandbox/store/models.ts';
import { loadSecret } from '../../sandbox/tokens.ts';
import { createSafeStorageVault } from '../../electron/services/session/token-vault.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import { notPrivate } from '../private-tree.ts';

const base = mkdtempSync(join(tmpdir(), 'printdesk-modes-'));
after(() => rmSync(base, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o777;
let n = 0;
const fresh = () => join(base, `case-${++n}`);

test('a folder is made 0700 with its missing parents, and an existing 0755 one is taken back', () => {
  const dir = join(fresh(), 'a', 'b');
  makePrivateDir(dir);
  assert.equal(mode(dir), 0o700);
  assert.equal(mode(join(dir, '..')), 0o700);
  const old = fresh();
  mkdirSync(old, { mode: 0o755 });
  chmodSync(old, 0o755);
  makePrivateDir(old);
  assert.equal(mode(old), 0o700);
});

test('a database, its -wal and -shm are 0600 from their first byte; an older 0644 set is taken back', () => {
  const dir = fresh();
  const db = openDatabase(join(dir, 'new.db'));
  db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
  assert.deepEqual(readdirSync(dir).sort(), ['new.db', 'new.db-shm', 'new.db-wal']);
  assert.deepEqual(notPrivate(dir), []);
  db.close();
  for (const name of ['old.db', 'old.db-wal', 'old.db-shm']) writeFileSync(join(dir, name), '', { mode: 0o644 });
  preparePrivateDatabase(join(dir, 'old.db'));
  assert.deepEqual(notPrivate(dir), []);
});

test('a written file is 0600, also when it replaces one others could read', () => {
  const file = join(makePrivateDir(fresh()), 'report.csv');
  writeFileSync(file, 'old', { mode: 0o644 });
  writePrivateFile(file, 'new');
  assert.equal(mode(file), 0o600);
});

test('a file made once is 0600, and a second maker finds it there', () => {
  const file = join(makePrivateDir(fresh()), 'once');
  assert.equal(createPrivateFileOnce(file, 'first'), true);
  assert.equal(createPrivateFileOnce(file, 'second'), false);
  assert.equal(mode(file), 0o600);
  assert.deepEqual(readdirSync(join(file, '..')), ['once'], 'no temporary file is left');
});

test('the model cache, the session file, the sandbox key, upload parts and stored models are 0600 in 0700 folders', async () => {
  const dir = makePrivateDir(fresh());
  const bytes = new Uint8Array([1, 2, 3]);
  await createModelCache(join(dir, 'model-cache')).put('039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81', bytes);
  const safeStorage = { isEncryptionAvailable: () => true, encryptString: (text: string) => Buffer.from(text), decryptString: (data: Buffer) => data.toString() };
  await createSafeStorageVault(safeStorage, join(dir, 'session', 'session.bin')).save({ email: 'a@b.c', service: 's', refreshToken: 'r' });
  const sandbox = join(dir, 'sandbox');
  makePrivateDir(sandbox);
  loadSecret(sandbox);
  storeModelFile(sandbox, bytes);
  await receiveInto(join(sandbox, 'uploads', 'x.part'), 0, Readable.from([Buffer.from('abc')]), 100);
  assert.ok(existsSync(join(sandbox, 'uploads', 'x.part')));
  assert.deepEqual(notPrivate(dir), []);
});
