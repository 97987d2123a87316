// Model records and their files, stored content-addressed by SHA-256 so the same file twice
// costs one copy. Uploads (a later route) and the operator's add-model both land here.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/open.ts';
import { sql } from '../db/statements.ts';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files.ts';
import { DEFAULT_MODEL_WEIGHT_GRAMS } from '../shipping.ts';
import { isoSeconds, nowSeconds } from '../validate.ts';

export const MODEL_FORMATS = ['stl', 'obj', '3mf'] as const;
export type ModelFormat = (typeof MODEL_FORMATS)[number];

export interface ModelRecord {
  modelId: string;
  projectId: string;
  folderId: string | null;
  name: string;
  fileName: string;
  format: ModelFormat;
  sizeBytes: number;
  sha256: string;
  createdAt: string;
}

export interface ModelRow {
  model_id: string;
  project_id: string;
  folder_id: string | null;
  name: string;
  file_name: string;
  format: ModelFormat;
  size_bytes: number;
  sha256: string;
  weight_grams: number;
  created_at: number;
  deleted_at: number | null;
}

/** The format a file name claims by its extension, whatever the case. */
export function modelFormatOf(fileName: string): ModelFormat | undefined {
  const dot = fileName.lastIndexOf('.');
  const ext = dot === -1 ? '' : fileName.slice(dot + 1).toLowerCase();
  return (MODEL_FORMATS as readonly string[]).includes(ext) ? (ext as ModelFormat) : undefined;
}

export function modelFilePath(dataDir: string, sha256: string): string {
  return path.join(dataDir, 'models', sha256.slice(0, 2), sha256);
}

/**
 * Files a received file (already hashed) under its hash. A hard link, not a rename, so the
 * source stays until the database says the model exists: a crash in between only leaves a spare file.
 */
export function linkIntoStore(dataDir: string, sha256: string, file: string): void {
  const target = modelFilePath(dataDir, sha256);
  if (fs.existsSync(target)) return;
  fs.mkdirSync(path.dirname(target), PRIVATE_DIR);
  try {
    fs.linkSync(file, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** Stores bytes under their hash; written to a temp file and renamed so a crash leaves no half file. */
export function storeModelFile(dataDir: string, bytes: Uint8Array): string {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const target = modelFilePath(dataDir, sha256);
  if (!fs.existsSync(target)) {
    fs.mkdirSync(path.dirname(target), PRIVATE_DIR);
    const temp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temp, bytes, PRIVATE_FILE);
    fs.renameSync(temp, target);
  }
  return sha256;
}

export interface NewModel {
  projectId: string;
  folderId?: string | null;
  name: string;
  fileName: string;
  format: ModelFormat;
  sizeBytes: number;
  sha256: string;
}

export function insertModel(db: Db, model: NewModel): ModelRecord {
  const modelId = randomUUID();
  sql(
    db,
    `INSERT INTO models (model_id, project_id, folder_id, name, file_name, format, size_bytes, sha256, weight_grams, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(modelId, model.projectId, model.folderId ?? null, model.name, model.fileName, model.format, model.sizeBytes, model.sha256, DEFAULT_MODEL_WEIGHT_GRAMS, nowSeconds());
  return findModel(db, modelId)!.record;
}

/** The public record plus the default shipping weight, which is not part of the record. */
export function findModel(db: Db, modelId: string): { record: ModelRecord; weightGrams: number } | undefined {
  const row = sql(db, 'SELECT * FROM models WHERE model_id = ? AND deleted_at IS NULL').get(modelId.toLowerCase()) as ModelRow | undefined;
  return row && { record: toRecord(row), weightGrams: row.weight_grams };
}

export function modelsOfProject(db: Db, projectId: string): ModelRecord[] {
  const rows = sql(db, 'SELECT * FROM models WHERE project_id = ? AND deleted_at IS NULL ORDER BY created_at, rowid').all(projectId) as ModelRow[];
  return rows.map(toRecord);
}

/** The oldest live model of the project with this content, for deduplicating uploads. */
export function findModelBySha(db: Db, projectId: string, sha256: string): ModelRecord | undefined {
  const row = sql(db, 'SELECT * FROM models WHERE project_id = ? AND sha256 = ? AND deleted_at IS NULL ORDER BY created_at, rowid LIMIT 1')
    .get(projectId, sha256.toLowerCase()) as ModelRow | undefined;
  return row && toRecord(row);
}

export function toRecord(row: ModelRow): ModelRecord {
  return {
    modelId: row.model_id,
    projectId: row.project_id,
    folderId: row.folder_id,
    name: row.name,
    fileName: row.file_name,
    format: row.format,
    sizeBytes: row.size_bytes,
    sha256: row.sha256,
    createdAt: isoSeconds(row.created_at),
  };
}
