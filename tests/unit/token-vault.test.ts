import assert from 'node:assert/strict';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createSafeStorageVault, type SafeStorageLike } from '../../electron/services/session/token-vault.ts';

const session = { email: 'a@b.test', service: 'https://x/v2', refreshToken: 'secret-refresh-token' };

function keychain(backend = 'gnome_libsecret', available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    getSelectedStorageBackend: () => backend,
    encryptString: (plain) => Buffer.from(Buffer.from(plain).map((b) => b ^ 0x33)),
    decryptString: (data) => Buffer.from(data.map((b) => b ^ 0x33)).toString(),
  };
}

test('the refresh token is stored encrypted, owner-only, and read back', async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'vault-')), 'nested', 'session.bin');
  const vault = createSafeStorageVault(keychain(), file);
  assert.equal(vault.persistent, true);
  await vault.save(session);
  const raw = await readFile(file);
  assert.ok(!raw.includes(Buffer.from('secret-refresh-token')), 'token must not be readable on disk');
  if (process.platform !== 'win32') assert.equal((await stat(file)).mode & 0o777, 0o600);
  assert.deepEqual(await createSafeStorageVault(keychain(), file).load(), session);
  await vault.clear();
  assert.equal(await vault.load(), null);
});

test('without a real keyring the token stays in memory and the reason is given', async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'vault-')), 'session.bin');
  for (const vault of [createSafeStorageVault(keychain('basic_text'), file), createSafeStorageVault(keychain('gnome_libsecret', false), file)]) {
    assert.equal(vault.persistent, false);
    assert.match(vault.reason ?? '', /keyring/);
    await vault.save(session);
    assert.deepEqual(await vault.load(), session);
    await assert.rejects(stat(file));
  }
});

test('an unreadable vault file is forgotten instead of failing every start', async () => {
  const file = join(await mkdtemp(join(tmpdir(), 'vault-')), 'session.bin');
  await writeFile(file, 'garbage');
  assert.equal(await createSafeStorageVault(keychain(), file).load(), null);
  await assert.rejects(stat(file));
});
