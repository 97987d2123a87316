import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openUploadStore } from '../../electron/services/library/upload-store.ts';
import type { NewItem } from '../../electron/services/library/upload-store.ts';
import { migrate, openDatabase } from '../../electron/services/storage/database.ts';

const item = (account: string | null, path: string): NewItem => ({
  account, projectId: 'p', folderId: null, path, fileName: path.slice(1), sizeBytes: 10, mtimeMs: 1, allowDuplicate: false,
});

test("an account's queue lists its own items, and the same file queued by another is not a twin", () => {
  const store = openUploadStore(openDatabase(':memory:'));
  const [mine] = store.insertMany([item('a', '/x.stl')]);
  const [theirs] = store.insertMany([item('b', '/x.stl')]);
  assert.deepEqual(store.all('a').map((i) => i.id), [mine.id]);
  assert.deepEqual(store.all('b').map((i) => i.id), [theirs.id]);
  assert.equal(store.sameFile(item('b', '/x.stl'))?.id, theirs.id);
  assert.equal(store.sameFile(item('c', '/x.stl')), undefined);
  assert.equal(store.sameSize(theirs), false, "a's item of the same size is not b's concern");
  store.update(mine.id, { sha256: 'h' });
  store.update(theirs.id, { sha256: 'h' });
  assert.equal(store.sameContent(theirs, 'h'), undefined, "b's upload does not wait on a's, which may never go");
});

test('items queued before accounts were recorded go to the first account signed in afterwards', () => {
  const db = openDatabase(':memory:');
  // The queue as version 1 of its schema left it: no account column.
  migrate(db, 'uploads', [(d) => d.exec(`CREATE TABLE upload_items (
    id TEXT PRIMARY KEY, seq INTEGER NOT NULL, project_id TEXT NOT NULL, folder_id TEXT, path TEXT NOT NULL, file_name TEXT NOT NULL,
    size_bytes INTEGER NOT NULL, mtime_ms INTEGER NOT NULL, sha256 TEXT, allow_duplicate INTEGER NOT NULL, state TEXT NOT NULL,
    base_url TEXT, upload_id TEXT, bytes_sent INTEGER NOT NULL DEFAULT 0, bytes_transferred INTEGER NOT NULL DEFAULT 0, model_id TEXT,
    duplicate INTEGER NOT NULL DEFAULT 0, error TEXT, attempts INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
  ) STRICT; CREATE INDEX upload_items_by_seq ON upload_items(seq); CREATE INDEX upload_items_by_sha ON upload_items(project_id, sha256);`)]);
  db.prepare(`INSERT INTO upload_items (id, seq, project_id, path, file_name, size_bytes, mtime_ms, allow_duplicate, state, created_at, updated_at)
    VALUES ('old', 1, 'p', '/old.stl', 'old.stl', 10, 1, 0, 'queued', 0, 0)`).run();
  const store = openUploadStore(db);
  assert.deepEqual(store.all('a'), []);
  store.adopt('a');
  store.adopt('b');
  assert.deepEqual(store.all('a').map((i) => i.id), ['old']);
  assert.deepEqual(store.all('b'), []);
});
