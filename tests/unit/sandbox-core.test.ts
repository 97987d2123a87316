// The sandbox's pure parts: rate-limit windows on a fake clock, fault plans, migrations, hashes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, openDatabase, schemaVersion } from '../../sandbox/db/open.ts';
import { LATEST_VERSION } from '../../sandbox/db/migrations.ts';
import { createFaultInjector, mulberry32 } from '../../sandbox/faults.ts';
import { isEmail, isGuid, isoSeconds } from '../../sandbox/validate.ts';
import { hashPassword, verifyPassword } from '../../sandbox/passwords.ts';
import { createRateLimiter } from '../../sandbox/rate-limit.ts';

describe('rate limiter', () => {
  it('opens a window at the first request and resets after it', () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ X: { limit: 2, windowSeconds: 10 } }, () => now);
    assert.equal(limiter.take('X', 'a').headers['X-RateLimit-Remaining'], '1');
    now += 4000;
    const second = limiter.take('X', 'a');
    assert.deepEqual(second.headers, { 'X-RateLimit-Limit': '2', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '6' });
    const third = limiter.take('X', 'a');
    assert.equal(third.allowed, false);
    assert.equal(third.retryAfterSeconds, 6);
    assert.equal(limiter.take('X', 'b').allowed, true, 'callers are counted apart');
    now += 6000;
    assert.equal(limiter.take('X', 'a').allowed, true);
  });

  it('falls back to the default rule and rejects nonsense', () => {
    const limiter = createRateLimiter({ default: { limit: 1, windowSeconds: 1 } });
    assert.equal(limiter.take('Any/Thing', 'a').allowed, true);
    assert.equal(limiter.take('Any/Thing', 'a').allowed, false);
    assert.throws(() => createRateLimiter({ X: { limit: 1, windowSeconds: 0 } }));
  });
});

describe('fault injector', () => {
  it('counts hits and retires a fault after its count', () => {
    const faults = createFaultInjector();
    faults.set({ kind: 'status-5xx', count: 2 });
    assert.equal(faults.plan('GET', '/v2/A').status, 503);
    assert.equal(faults.plan('GET', '/v2/A').status, 503);
    assert.equal(faults.plan('GET', '/v2/A').status, undefined);
    assert.deepEqual(faults.list(), []);
  });

  it('lets the first matching requests through when told to skip them, so the n-th of a series fails', () => {
    const faults = createFaultInjector();
    faults.set({ kind: 'status-5xx', path: '/Model3D/UpdateModel', skip: 2, count: 1 });
    assert.equal(faults.plan('PUT', '/v2/Model3D/UpdateModel').status, undefined);
    assert.equal(faults.plan('GET', '/v2/Model3D/GetModels').status, undefined, 'another path is not counted');
    assert.equal(faults.plan('PUT', '/v2/Model3D/UpdateModel').status, undefined);
    assert.equal(faults.plan('PUT', '/v2/Model3D/UpdateModel').status, 503);
    assert.equal(faults.plan('PUT', '/v2/Model3D/UpdateModel').status, undefined);
  });

  it('combines delays with a terminal fault', () => {
    const faults = createFaultInjector();
    faults.set([{ kind: 'latency', ms: 10 }, { kind: 'stall', ms: 20 }, { kind: 'reset-after' }]);
    assert.deepEqual(faults.plan('POST', '/v2/B'), { delayBeforeMs: 10, delayAfterMs: 20, resetBefore: false, resetAfter: true });
  });

  it('repeats a seeded sequence', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const draws = Array.from({ length: 5 }, () => a());
    assert.deepEqual(Array.from({ length: 5 }, () => b()), draws);
    assert.ok(draws.every((x) => x >= 0 && x < 1));
  });
});

describe('migrations', () => {
  it('bring a new database to the latest version, in WAL mode, and are idempotent', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-unit-'));
    try {
      const db = openDatabase(dir);
      assert.equal(schemaVersion(db), LATEST_VERSION);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      db.close();
      const again = openDatabase(dir);
      assert.equal(schemaVersion(again), LATEST_VERSION);
      again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('apply only what is new and refuse a database from a newer build', () => {
    const db = new Database(':memory:');
    migrate(db, [{ version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' }]);
    migrate(db, [
      { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' },
      { version: 2, name: 'b', sql: 'CREATE TABLE b (y INTEGER)' },
    ]);
    assert.equal(schemaVersion(db), 2);
    assert.throws(() => migrate(db, [{ version: 1, name: 'a', sql: '' }]), /newer/);
  });

  it('leave the version untouched when a migration fails', () => {
    const db = new Database(':memory:');
    assert.throws(() => migrate(db, [{ version: 1, name: 'bad', sql: 'CREATE TABLE t (x); NOT SQL' }]));
    assert.equal(schemaVersion(db), 0);
    assert.deepEqual(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 't'").get(), { n: 0 });
  });
});

describe('validation and hashes', () => {
  it('recognises GUIDs, e-mails and formats timestamps without milliseconds', () => {
    assert.ok(isGuid('3f2504e0-4f89-11d3-9a0c-0305e82c3301'));
    assert.ok(!isGuid('3f2504e0-4f89-11d3-9a0c-0305e82c330'));
    assert.ok(isEmail('a.b+c@example.co'));
    assert.ok(!isEmail('not an email'));
    assert.equal(isoSeconds(0), '1970-01-01T00:00:00Z');
  });

  it('hashes passwords with a salt and verifies them', async () => {
    const [one, two] = await Promise.all([hashPassword('secret-pw'), hashPassword('secret-pw')]);
    assert.notEqual(one, two);
    assert.ok(!one.includes('secret-pw'));
    assert.equal(await verifyPassword('secret-pw', one), true);
    assert.equal(await verifyPassword('Secret-pw', one), false);
    assert.equal(await verifyPassword('secret-pw', 'garbage'), false);
  });
});
