// Folders of a project: a tree kept as rows with parent ids (GetFolders returns it flat). Names
// are unique among siblings regardless of case; nesting is capped so a client can always draw it.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { ApiError, badRequest } from '../http.ts';
import { isoSeconds, nowSeconds } from '../validate.ts';

export const MAX_FOLDER_DEPTH = 8;

export interface FolderRecord {
  folderId: string;
  projectId: string;
  parentFolderId: string | null;
  name: string;
  /** models directly in this folder (not in its subfolders) */
  modelCount: number;
  createdAt: string;
  updatedAt: string;
}

interface FolderRow {
  folder_id: string;
  project_id: string;
  parent_folder_id: string | null;
  name: string;
  created_at: number;
  updated_at: number;
  model_count: number;
}

const SELECT = `SELECT f.*, (SELECT count(*) FROM models m WHERE m.folder_id = f.folder_id AND m.deleted_at IS NULL) AS model_count FROM folders f`;

export function listFolders(db: Db, projectId: string): FolderRecord[] {
  const rows = db.prepare(`${SELECT} WHERE f.project_id = ? ORDER BY f.name_key, f.rowid`).all(projectId) as FolderRow[];
  return rows.map(toRecord);
}

export function findFolder(db: Db, folderId: string): FolderRecord | undefined {
  const row = db.prepare(`${SELECT} WHERE f.folder_id = ?`).get(folderId.toLowerCase()) as FolderRow | undefined;
  return row && toRecord(row);
}

export function createFolder(db: Db, folder: { projectId: string; parentFolderId: string | null; name: string }): FolderRecord {
  return db.transaction(() => {
    if (folder.parentFolderId !== null) {
      const parent = parentIn(db, folder.projectId, folder.parentFolderId);
      if (depthOf(db, parent.folderId) + 1 > MAX_FOLDER_DEPTH) throw badRequest(`Folders nest at most ${MAX_FOLDER_DEPTH} levels deep`);
    }
    const folderId = randomUUID();
    const now = nowSeconds();
    unique(() =>
      db.prepare(
        `INSERT INTO folders (folder_id, project_id, parent_folder_id, name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(folderId, folder.projectId, folder.parentFolderId, folder.name, nameKey(folder.name), now, now),
    folder.name);
    return findFolder(db, folderId)!;
  }).immediate();
}

export function renameFolder(db: Db, folderId: string, name: string): FolderRecord {
  unique(() => db.prepare('UPDATE folders SET name = ?, name_key = ?, updated_at = ? WHERE folder_id = ?').run(name, nameKey(name), nowSeconds(), folderId), name);
  return findFolder(db, folderId)!;
}

/** Moves a folder under another (or to the top with null), refusing cycles and too deep a tree. */
export function moveFolder(db: Db, folder: FolderRecord, parentFolderId: string | null): FolderRecord {
  return db.transaction(() => {
    let parentDepth = 0;
    if (parentFolderId !== null) {
      const parent = parentIn(db, folder.projectId, parentFolderId);
      if (ancestorsOf(db, parent.folderId).includes(folder.folderId) || parent.folderId === folder.folderId) {
        throw badRequest('A folder cannot be moved into itself or into one of its subfolders');
      }
      parentDepth = depthOf(db, parent.folderId);
    }
    if (parentDepth + heightOf(db, folder.folderId) > MAX_FOLDER_DEPTH) throw badRequest(`Folders nest at most ${MAX_FOLDER_DEPTH} levels deep`);
    unique(() => db.prepare('UPDATE folders SET parent_folder_id = ?, updated_at = ? WHERE folder_id = ?').run(parentFolderId, nowSeconds(), folder.folderId), folder.name);
    return findFolder(db, folder.folderId)!;
  }).immediate();
}

/** Deletes an empty folder; one holding models or folders is a 409, so nothing disappears silently. */
export function deleteFolder(db: Db, folderId: string): void {
  db.transaction(() => {
    const children = db.prepare('SELECT count(*) AS n FROM folders WHERE parent_folder_id = ?').get(folderId) as { n: number };
    const models = db.prepare('SELECT count(*) AS n FROM models WHERE folder_id = ? AND deleted_at IS NULL').get(folderId) as { n: number };
    if (children.n > 0 || models.n > 0) {
      const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
      const holds = [models.n ? counted(models.n, 'model') : '', children.n ? counted(children.n, 'folder') : ''].filter(Boolean).join(' and ');
      throw new ApiError(409, 'CONFLICT', `The folder is not empty: it holds ${holds}. Move or delete ${models.n + children.n === 1 ? 'it' : 'them'} first`);
    }
    // Deleted models keep their folder id for history; it must not point at a folder that is gone.
    db.prepare('UPDATE models SET folder_id = NULL WHERE folder_id = ?').run(folderId);
    db.prepare('DELETE FROM folders WHERE folder_id = ?').run(folderId);
  }).immediate();
}

/** The folder `folderId` when it exists in `projectId`; a folder of another project is a 400. */
export function parentIn(db: Db, projectId: string, folderId: string): FolderRecord {
  const folder = findFolder(db, folderId);
  if (!folder || folder.projectId !== projectId) throw badRequest(`Folder ${folderId} does not exist in project ${projectId}`);
  return folder;
}

function ancestorsOf(db: Db, folderId: string): string[] {
  const rows = db.prepare(
    `WITH RECURSIVE up(id) AS (SELECT parent_folder_id FROM folders WHERE folder_id = ?
       UNION ALL SELECT f.parent_folder_id FROM folders f JOIN up ON f.folder_id = up.id)
     SELECT id FROM up WHERE id IS NOT NULL`,
  ).all(folderId) as { id: string }[];
  return rows.map((r) => r.id);
}

function depthOf(db: Db, folderId: string): number {
  return ancestorsOf(db, folderId).length + 1;
}

/** Levels in the subtree rooted at folderId, itself included. */
function heightOf(db: Db, folderId: string): number {
  const row = db.prepare(
    `WITH RECURSIVE down(id, level) AS (SELECT ?, 1
       UNION ALL SELECT f.folder_id, down.level + 1 FROM folders f JOIN down ON f.parent_folder_id = down.id)
     SELECT max(level) AS height FROM down`,
  ).get(folderId) as { height: number };
  return row.height;
}

function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

function unique(write: () => unknown, name: string): void {
  try {
    write();
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw new ApiError(409, 'CONFLICT', `A folder named "${name}" already exists here`);
    }
    throw error;
  }
}

function toRecord(row: FolderRow): FolderRecord {
  return {
    folderId: row.folder_id,
    projectId: row.project_id,
    parentFolderId: row.parent_folder_id,
    name: row.name,
    modelCount: row.model_count,
    createdAt: isoSeconds(row.created_at),
    updatedAt: isoSeconds(row.updated_at),
  };
}
