// The local database holds customers' addresses: its folder and file are for the user alone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../electron/services/storage/database.ts';

test('a new database is created in a folder of mode 0700 and is itself 0600', () => {
  const root = mkdtempSync(join(tmpdir(), 'db-mode-'));
  try {
    const path = join(root, 'user-data', 'printdesk.db');
    const db = openDatabase(path);
    db.exec('CREATE TABLE t (x)');
    assert.equal(statSync(join(root, 'user-data')).mode & 0o777, 0o700);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    db.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
