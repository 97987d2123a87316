// Listing, moving, renaming and deleting models: the library view's side of the model table.
import fs from 'node:fs';
import type { Db } from '../db/open.ts';
import { ApiError } from '../http.ts';
import { nowSeconds } from '../validate.ts';
import { findModel, modelFilePath, toRecord } from './models.ts';
import type { ModelRecord, ModelRow } from './models.ts';

export const MODEL_SORTS = { name: 'name COLLATE NOCASE', createdAt: 'created_at', sizeBytes: 'size_bytes' } as const;
export type ModelSort = keyof typeof MODEL_SORTS;

export interface ModelQuery {
  projectId: string;
  /** a folder's models only; null = models outside any folder; undefined = the whole project */
  folderId?: string | null;
  /** case-insensitive substring of the name or file name */
  search?: string;
  sort: ModelSort;
  descending: boolean;
  page: number;
  pageSize: number;
}

export function listModels(db: Db, query: ModelQuery): { models: ModelRecord[]; total: number } {
  const where = ['project_id = ?', 'deleted_at IS NULL'];
  const params: unknown[] = [query.projectId];
  if (query.folderId === null) where.push('folder_id IS NULL');
  else if (query.folderId !== undefined) {
    where.push('folder_id = ?');
    params.push(query.folderId);
  }
  if (query.search) {
    // instr on lower(): no LIKE wildcards to escape, and unicode-safe for the ASCII case folding SQLite has.
    where.push('(instr(lower(name), lower(?)) > 0 OR instr(lower(file_name), lower(?)) > 0)');
    params.push(query.search, query.search);
  }
  const clause = where.join(' AND ');
  const { total } = db.prepare(`SELECT count(*) AS total FROM models WHERE ${clause}`).get(...params) as { total: number };
  // rowid breaks ties so pages never overlap or skip rows.
  const order = `${MODEL_SORTS[query.sort]} ${query.descending ? 'DESC' : 'ASC'}, rowid ${query.descending ? 'DESC' : 'ASC'}`;
  const rows = db
    .prepare(`SELECT * FROM models WHERE ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...params, query.pageSize, (query.page - 1) * query.pageSize) as ModelRow[];
  return { models: rows.map(toRecord), total };
}

export function updateModel(db: Db, modelId: string, change: { name?: string; folderId?: string | null }): ModelRecord {
  if (change.name !== undefined) db.prepare('UPDATE models SET name = ? WHERE model_id = ?').run(change.name, modelId);
  if (change.folderId !== undefined) db.prepare('UPDATE models SET folder_id = ? WHERE model_id = ?').run(change.folderId, modelId);
  return findModel(db, modelId)!.record;
}

/**
 * Deletes a model unless an open order uses it (409). A model some closed order used is only
 * marked deleted; the file goes once no row of any kind refers to its content.
 */
export function deleteModel(db: Db, dataDir: string, model: ModelRecord): void {
  const sha = db.transaction(() => {
    const open = db.prepare(
      `SELECT o.order_id FROM order_lines l JOIN orders o ON o.order_id = l.order_id
       WHERE l.model_id = ? AND o.status IN ('received', 'in_production') LIMIT 1`,
    ).get(model.modelId) as { order_id: string } | undefined;
    if (open) throw new ApiError(409, 'CONFLICT', `Model ${model.modelId} is used by open order ${open.order_id}; it can be deleted once that order has shipped or been cancelled`);
    const used = db.prepare('SELECT 1 FROM order_lines WHERE model_id = ? LIMIT 1').get(model.modelId) !== undefined;
    if (used) db.prepare('UPDATE models SET deleted_at = ? WHERE model_id = ?').run(nowSeconds(), model.modelId);
    else db.prepare('DELETE FROM models WHERE model_id = ?').run(model.modelId);
    const stillReferenced = db.prepare('SELECT 1 FROM models WHERE sha256 = ? LIMIT 1').get(model.sha256) !== undefined;
    return stillReferenced ? null : model.sha256;
  }).immediate();
  if (sha) fs.rmSync(modelFilePath(dataDir, sha), { force: true });
}
