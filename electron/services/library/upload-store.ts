// The upload queue on disk (the app's SQLite, domain "uploads"): every item and its state, the
// service's session id and confirmed offset, so a restarted host carries on where it stopped. Each item
// belongs to the account that queued it: another account signed in on this computer neither sees nor
// sends it, and no item of one account is taken as a duplicate of another's.
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { UploadError, UploadItem, UploadState } from '../../contract/schemas/library.ts';
import { durably, migrate } from '../storage/database.ts';
import type { Db, Migration } from '../storage/database.ts';
import { lowerCaseAccountKeys } from '../storage/account-keys.ts';

/** States an item can still leave by itself; the rest wait for the user. */
export const ACTIVE_STATES: readonly UploadState[] = ['queued', 'hashing', 'uploading'];

interface Row {
  id: string;
  account: string | null;
  seq: number;
  project_id: string;
  folder_id: string | null;
  path: string;
  file_name: string;
  size_bytes: number;
  mtime_ms: number;
  sha256: string | null;
  allow_duplicate: number;
  state: UploadState;
  base_url: string | null;
  upload_id: string | null;
  bytes_sent: number;
  bytes_transferred: number;
  model_id: string | null;
  duplicate: number;
  error: string | null;
  attempts: number;
  created_at: number;
  updated_at: number;
}

/** The fields the queue itself manages besides what the renderer sees. */
export interface StoredItem extends UploadItem {
  /** service and e-mail of the account that queued it (null: queued before accounts were recorded) */
  account: string | null;
  mtimeMs: number;
  allowDuplicate: boolean;
  /** the service the session below belongs to */
  baseUrl: string | null;
  uploadId: string | null;
}

const MIGRATIONS: Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE upload_items (
        id              TEXT PRIMARY KEY,
        seq             INTEGER NOT NULL,
        project_id      TEXT NOT NULL,
        folder_id       TEXT,
        path            TEXT NOT NULL,
        file_name       TEXT NOT NULL,
        size_bytes      INTEGER NOT NULL,
        mtime_ms        INTEGER NOT NULL,
        sha256          TEXT,
        allow_duplicate INTEGER NOT NULL,
        state           TEXT NOT NULL,
        base_url        TEXT,
        upload_id       TEXT,
        bytes_sent      INTEGER NOT NULL DEFAULT 0,
        bytes_transferred INTEGER NOT NULL DEFAULT 0,
        model_id        TEXT,
        duplicate       INTEGER NOT NULL DEFAULT 0,
        error           TEXT,
        attempts        INTEGER NOT NULL DEFAULT 0,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX upload_items_by_seq ON upload_items(seq);
      CREATE INDEX upload_items_by_sha ON upload_items(project_id, sha256);
    `),
  (db) =>
    db.exec(`
      ALTER TABLE upload_items ADD COLUMN account TEXT;
      CREATE INDEX upload_items_by_account ON upload_items(account, seq);
    `),
  // Account keys in one case (see account-keys.ts).
  (db: Db) => lowerCaseAccountKeys(db, ['upload_items']),
];

export type NewItem = Pick<StoredItem, 'account' | 'projectId' | 'folderId' | 'path' | 'fileName' | 'sizeBytes' | 'mtimeMs' | 'allowDuplicate'> &
  Partial<Pick<StoredItem, 'state' | 'error'>>;

export type ItemPatch = Partial<
  Pick<StoredItem, 'state' | 'sha256' | 'baseUrl' | 'uploadId' | 'bytesSent' | 'modelId' | 'duplicate' | 'error' | 'attempts' | 'sizeBytes' | 'mtimeMs' | 'bytesTransferred'>
>;

const COLUMNS: Record<keyof ItemPatch, keyof Row> = {
  state: 'state', sha256: 'sha256', baseUrl: 'base_url', uploadId: 'upload_id', bytesSent: 'bytes_sent',
  modelId: 'model_id', duplicate: 'duplicate', error: 'error', attempts: 'attempts', sizeBytes: 'size_bytes', mtimeMs: 'mtime_ms', bytesTransferred: 'bytes_transferred',
};

export type UploadStore = ReturnType<typeof openUploadStore>;

export function openUploadStore(db: Db, now: () => number = Date.now) {
  migrate(db, 'uploads', MIGRATIONS);
  const byId = db.prepare('SELECT * FROM upload_items WHERE id = ?');
  // Updates touch a handful of column sets; preparing each once keeps per-file overhead low.
  const statements = new Map<string, Statement<unknown[]>>();
  const statement = (sql: string) => {
    let prepared = statements.get(sql);
    if (!prepared) statements.set(sql, (prepared = db.prepare(sql)));
    return prepared;
  };

  function get(id: string): StoredItem | undefined {
    const row = byId.get(id) as Row | undefined;
    return row && toItem(row);
  }

  /** Items are added durably: a drop the user saw accepted survives a power cut. */
  function insertMany(items: NewItem[]): StoredItem[] {
    const at = now();
    const ids = durably(db, () => {
      const { next } = db.prepare('SELECT coalesce(max(seq), 0) + 1 AS next FROM upload_items').get() as { next: number };
      const insert = db.prepare(
        `INSERT INTO upload_items (id, seq, account, project_id, folder_id, path, file_name, size_bytes, mtime_ms, allow_duplicate, state, error, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      return items.map((item, index) => {
        const id = randomUUID();
        insert.run(id, next + index, item.account, item.projectId, item.folderId, item.path, item.fileName, item.sizeBytes, item.mtimeMs,
          item.allowDuplicate ? 1 : 0, item.state ?? 'queued', item.error ? JSON.stringify(item.error) : null, at, at);
        return id;
      });
    });
    return ids.map((id) => get(id)!);
  }

  /**
   * Plain (WAL, synchronous NORMAL) writes: they survive an app crash; a power cut may lose the
   * last few, which costs at most an upload the service then recognises by its hash.
   */
  function update(id: string, patch: ItemPatch): StoredItem {
    const keys = Object.keys(patch) as (keyof ItemPatch)[];
    const values = keys.map((key) => {
      const value = patch[key];
      if (key === 'error') return value ? JSON.stringify(value) : null;
      if (key === 'duplicate') return value ? 1 : 0;
      return value ?? null;
    });
    const sql = `UPDATE upload_items SET ${keys.map((k) => `${COLUMNS[k]} = ?`).join(', ')}, updated_at = ? WHERE id = ?`;
    statement(sql).run(...values, now(), id);
    return get(id)!;
  }

  return {
    get,
    insertMany,
    update,
    /** The file of every item, whichever account's: what a staging folder must keep. */
    paths: (): string[] => (statement('SELECT DISTINCT path FROM upload_items').pluck().all() as string[]),
    /** The account's items, in the order they were queued. */
    all: (account: string): StoredItem[] => (statement('SELECT * FROM upload_items WHERE account = ? ORDER BY seq').all(account) as Row[]).map(toItem),
    /**
     * Items queued before accounts were recorded go to the first account signed in after the update: the
     * one that queued them, unless a second account signed in between, which nobody can tell now.
     */
    adopt(account: string): void {
      statement('UPDATE upload_items SET account = ? WHERE account IS NULL').run(account);
    },
    /** The same file (path, size, modification time) already waiting or done in this project and account. */
    sameFile(item: Pick<StoredItem, 'account' | 'projectId' | 'path' | 'sizeBytes' | 'mtimeMs'>): StoredItem | undefined {
      const row = statement(
        `SELECT * FROM upload_items WHERE account IS ? AND project_id = ? AND path = ? AND size_bytes = ? AND mtime_ms = ?
           AND state NOT IN ('failed', 'cancelled') ORDER BY seq LIMIT 1`,
      ).get(item.account, item.projectId, item.path, item.sizeBytes, item.mtimeMs) as Row | undefined;
      return row && toItem(row);
    },
    /**
     * Another item of the project with the same size that is done or may still go, earlier or later:
     * both sides of a possible duplicate hash first, so the later one finds the earlier one's hash.
     */
    sameSize(item: Pick<StoredItem, 'id' | 'account' | 'projectId' | 'sizeBytes'>): boolean {
      return statement(
        `SELECT 1 FROM upload_items WHERE account IS ? AND project_id = ? AND size_bytes = ? AND id != ?
           AND state IN ('queued', 'hashing', 'uploading', 'paused', 'done') LIMIT 1`,
      ).get(item.account, item.projectId, item.sizeBytes, item.id) !== undefined;
    },
    /**
     * An earlier item of the project of this size on its way without a known hash (hashed as it is sent):
     * once it is done, it may turn out to have these very bytes.
     */
    unhashedTwinInFlight(item: Pick<StoredItem, 'id' | 'account' | 'projectId' | 'sizeBytes'>): StoredItem | undefined {
      const row = statement(
        `SELECT * FROM upload_items WHERE account IS ? AND project_id = ? AND size_bytes = ? AND sha256 IS NULL AND id != ? AND allow_duplicate = 0
           AND state IN ('hashing', 'uploading') AND seq < (SELECT seq FROM upload_items WHERE id = ?) ORDER BY seq LIMIT 1`,
      ).get(item.account, item.projectId, item.sizeBytes, item.id, item.id) as Row | undefined;
      return row && toItem(row);
    },
    /**
     * An earlier item of the project and account with the same bytes that is done or on its way (a paused
     * one may never go, nor may another account's, which waits for its own sign-in).
     */
    sameContent(item: Pick<StoredItem, 'id' | 'account' | 'projectId'>, sha256: string): StoredItem | undefined {
      const row = statement(
        `SELECT * FROM upload_items WHERE account IS ? AND project_id = ? AND sha256 = ? AND id != ? AND allow_duplicate = 0
           AND state IN ('queued', 'hashing', 'uploading', 'done') AND seq < (SELECT seq FROM upload_items WHERE id = ?) ORDER BY seq LIMIT 1`,
      ).get(item.account, item.projectId, sha256, item.id, item.id) as Row | undefined;
      return row && toItem(row);
    },
    remove(ids: readonly string[]): void {
      const del = db.prepare('DELETE FROM upload_items WHERE id = ?');
      db.transaction(() => ids.forEach((id) => del.run(id)))();
    },
  };
}

export function publicItem(item: StoredItem): UploadItem {
  const { account: _o, mtimeMs: _m, allowDuplicate: _a, baseUrl: _b, uploadId: _u, ...visible } = item;
  return visible;
}

function toItem(row: Row): StoredItem {
  return {
    id: row.id,
    account: row.account,
    projectId: row.project_id,
    folderId: row.folder_id,
    path: row.path,
    fileName: row.file_name,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    state: row.state,
    bytesSent: row.bytes_sent,
    bytesTransferred: row.bytes_transferred,
    modelId: row.model_id,
    duplicate: row.duplicate === 1,
    error: row.error ? (JSON.parse(row.error) as UploadError) : null,
    attempts: row.attempts,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    mtimeMs: row.mtime_ms,
    allowDuplicate: row.allow_duplicate === 1,
    baseUrl: row.base_url,
    uploadId: row.upload_id,
  };
}
