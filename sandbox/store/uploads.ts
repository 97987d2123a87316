// Upload sessions. An open session's received_bytes is the offset a client resumes from; it only
// moves forward after the bytes it counts are on disk (fsync), so it never claims bytes a crash lost.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { isoSeconds, nowSeconds } from '../validate.ts';

export const UPLOAD_STATES = ['open', 'complete', 'failed', 'cancelled'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];
/** An open session nobody has touched for this long is removed with its bytes. */
export const UPLOAD_IDLE_SECONDS = 24 * 3600;

export interface UploadRow {
  upload_id: string;
  kind: 'resumable' | 'whole';
  user_id: string;
  project_id: string;
  folder_id: string | null;
  name: string;
  file_name: string;
  size_bytes: number;
  declared_sha256: string | null;
  allow_duplicate: number;
  received_bytes: number;
  bytes_received: number;
  state: UploadState;
  model_id: string | null;
  duplicate: number;
  error: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

export interface NewUpload {
  kind: UploadRow['kind'];
  userId: string;
  projectId: string;
  folderId: string | null;
  name: string;
  fileName: string;
  sizeBytes: number;
  sha256: string | null;
  allowDuplicate: boolean;
}

/** What operators and tests see of a session. */
export interface UploadRecord {
  uploadId: string;
  kind: UploadRow['kind'];
  projectId: string;
  fileName: string;
  sizeBytes: number;
  offset: number;
  /** every body byte taken in for this session, including bytes sent again after an interruption */
  bytesReceived: number;
  state: UploadState;
  modelId: string | null;
  duplicate: boolean;
  error: string | null;
  createdAt: string;
  expiresAt: string;
}

export function insertUpload(db: Db, upload: NewUpload, state: UploadState = 'open'): UploadRow {
  const uploadId = randomUUID();
  const now = nowSeconds();
  db.prepare(
    `INSERT INTO uploads (upload_id, kind, user_id, project_id, folder_id, name, file_name, size_bytes, declared_sha256,
       allow_duplicate, received_bytes, bytes_received, state, created_at, updated_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)`,
  ).run(
    uploadId, upload.kind, upload.userId, upload.projectId, upload.folderId, upload.name, upload.fileName, upload.sizeBytes,
    upload.sha256, upload.allowDuplicate ? 1 : 0, state, now, now, now + UPLOAD_IDLE_SECONDS,
  );
  return findUpload(db, uploadId)!;
}

export function findUpload(db: Db, uploadId: string): UploadRow | undefined {
  return db.prepare('SELECT * FROM uploads WHERE upload_id = ?').get(uploadId.toLowerCase()) as UploadRow | undefined;
}

/** Records bytes appended (and durable) at the session's offset; `taken` counts all bytes read. */
export function advanceUpload(db: Db, uploadId: string, offset: number, taken: number): void {
  const now = nowSeconds();
  db.prepare(
    'UPDATE uploads SET received_bytes = ?, bytes_received = bytes_received + ?, updated_at = ?, expires_at = ? WHERE upload_id = ?',
  ).run(offset, taken, now, now + UPLOAD_IDLE_SECONDS, uploadId);
}

export function finishUpload(db: Db, uploadId: string, outcome: { state: UploadState; modelId?: string; duplicate?: boolean; error?: string }): void {
  db.prepare('UPDATE uploads SET state = ?, model_id = ?, duplicate = ?, error = ?, updated_at = ? WHERE upload_id = ?').run(
    outcome.state, outcome.modelId ?? null, outcome.duplicate ? 1 : 0, outcome.error ?? null, nowSeconds(), uploadId,
  );
}

/** Open sessions past their expiry, for the sweep that removes them and their bytes. */
export function expiredUploads(db: Db, now = nowSeconds()): string[] {
  const rows = db.prepare("SELECT upload_id FROM uploads WHERE state = 'open' AND expires_at < ?").all(now) as { upload_id: string }[];
  return rows.map((r) => r.upload_id);
}

export function listUploads(db: Db, filter: { projectId?: string } = {}): UploadRecord[] {
  const rows = (
    filter.projectId
      ? db.prepare('SELECT * FROM uploads WHERE project_id = ? ORDER BY created_at, rowid').all(filter.projectId)
      : db.prepare('SELECT * FROM uploads ORDER BY created_at, rowid').all()
  ) as UploadRow[];
  return rows.map(uploadRecord);
}

export function uploadRecord(row: UploadRow): UploadRecord {
  return {
    uploadId: row.upload_id,
    kind: row.kind,
    projectId: row.project_id,
    fileName: row.file_name,
    sizeBytes: row.size_bytes,
    offset: row.received_bytes,
    bytesReceived: row.bytes_received,
    state: row.state,
    modelId: row.model_id,
    duplicate: row.duplicate === 1,
    error: row.error,
    createdAt: isoSeconds(row.created_at),
    expiresAt: isoSeconds(row.expires_at),
  };
}
