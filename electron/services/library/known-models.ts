// The models and folders each account last saw in each project (the app's SQLite, domain "library"),
// so that offline the library still lists them, a model's details and cached preview still open, and
// the order form still finds a model by its name. It is a record of what the service said, never a
// source of truth: a listing answered from it says since when it has not been checked.
import type { Db, Migration } from '../storage/database.ts';
import { migrate } from '../storage/database.ts';
import { Folder, Model } from '../../contract/schemas/library.ts';
import type { ModelPage, ModelQuery } from './models.ts';
import { filterModels, sortModels } from './models.ts';
import { z } from 'zod';
import { lowerCaseAccountKeys } from '../storage/account-keys.ts';

const MIGRATIONS: Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE known_projects (
        account TEXT NOT NULL,
        project_id TEXT NOT NULL,
        folders TEXT,
        listed_at TEXT,
        PRIMARY KEY (account, project_id)
      );
      CREATE TABLE known_models (
        account TEXT NOT NULL,
        project_id TEXT NOT NULL,
        model_id TEXT NOT NULL,
        folder_id TEXT,
        model TEXT NOT NULL,
        PRIMARY KEY (account, project_id, model_id)
      );
      CREATE INDEX known_models_by_id ON known_models (account, model_id);
    `),
  // Account keys in one case (see account-keys.ts).
  (db: Db) => lowerCaseAccountKeys(db, ['known_projects', 'known_models']),
];

/** A listing answered from what was last seen: `asOf` is when the project's models were last listed. */
export type KnownPage = ModelPage & { asOf: string };

export interface KnownModels {
  sawFolders(projectId: string, folders: readonly Folder[]): void;
  sawPage(query: ModelQuery, page: ModelPage): void;
  saw(model: Model): void;
  forget(modelId: string): void;
  /** null: this account never listed the project's folders here */
  folders(projectId: string): Folder[] | null;
  /** null: this account never listed the project's models here */
  page(query: ModelQuery): KnownPage | null;
  model(modelId: string): Model | null;
}

export function createKnownModels(db: Db, account: () => string | null, now: () => number = Date.now): KnownModels {
  migrate(db, 'library', MIGRATIONS);
  const upsertModel = db.prepare(
    `INSERT INTO known_models (account, project_id, model_id, folder_id, model) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (account, project_id, model_id) DO UPDATE SET folder_id = excluded.folder_id, model = excluded.model`,
  );
  const touchProject = db.prepare(
    `INSERT INTO known_projects (account, project_id, listed_at) VALUES (?, ?, ?)
     ON CONFLICT (account, project_id) DO UPDATE SET listed_at = excluded.listed_at`,
  );
  const storeFolders = db.prepare(
    `INSERT INTO known_projects (account, project_id, folders) VALUES (?, ?, ?)
     ON CONFLICT (account, project_id) DO UPDATE SET folders = excluded.folders`,
  );
  const projectRow = db.prepare('SELECT folders, listed_at FROM known_projects WHERE account = ? AND project_id = ?');
  const modelsOf = db.prepare('SELECT model FROM known_models WHERE account = ? AND project_id = ?');
  const modelById = db.prepare('SELECT model FROM known_models WHERE account = ? AND model_id = ?');
  const deleteModel = db.prepare('DELETE FROM known_models WHERE account = ? AND model_id = ?');
  const idsIn = db.prepare('SELECT model_id AS id FROM known_models WHERE account = ? AND project_id = ?');
  const idsInFolder = db.prepare('SELECT model_id AS id FROM known_models WHERE account = ? AND project_id = ? AND folder_id IS ?');
  const deleteFrom = db.prepare('DELETE FROM known_models WHERE account = ? AND project_id = ? AND model_id = ?');

  const parsed = <T>(schema: z.ZodType<T>, text: string | null | undefined): T | null => {
    if (!text) return null;
    try {
      const result = schema.safeParse(JSON.parse(text));
      return result.success ? result.data : null;
    } catch {
      return null;
    }
  };
  const store = (who: string, projectId: string, model: Model) =>
    upsertModel.run(who, projectId, model.modelId, model.folderId, JSON.stringify(model));

  const sawPage = db.transaction((who: string, query: ModelQuery, page: ModelPage) => {
    const models = page.models.map((m) => ({ ...m, projectId: m.projectId ?? query.projectId }));
    for (const model of models) store(who, query.projectId, model);
    // A whole listing (first page holding everything, nothing searched) also says what is gone.
    if (query.search?.trim() || (query.page ?? 1) !== 1 || page.total > page.models.length) return;
    const listed = new Set(models.map((m) => m.modelId));
    const known = (query.folderId === undefined ? idsIn.all(who, query.projectId) : idsInFolder.all(who, query.projectId, query.folderId)) as { id: string }[];
    for (const { id } of known) if (!listed.has(id)) deleteFrom.run(who, query.projectId, id);
    touchProject.run(who, query.projectId, new Date(now()).toISOString());
  });

  return {
    sawFolders(projectId, folders) {
      const who = account();
      if (who) storeFolders.run(who, projectId, JSON.stringify(folders));
    },
    sawPage(query, page) {
      const who = account();
      if (who) sawPage(who, query, page);
    },
    saw(model) {
      const who = account();
      if (who && model.projectId) store(who, model.projectId, model);
    },
    forget(modelId) {
      const who = account();
      if (who) deleteModel.run(who, modelId);
    },
    folders(projectId) {
      const who = account();
      const row = who ? (projectRow.get(who, projectId) as { folders: string | null } | undefined) : undefined;
      return parsed(z.array(Folder), row?.folders);
    },
    page(query) {
      const who = account();
      const row = who ? (projectRow.get(who, query.projectId) as { listed_at: string | null } | undefined) : undefined;
      if (!who || !row?.listed_at) return null;
      const all = (modelsOf.all(who, query.projectId) as { model: string }[]).flatMap((r) => parsed(Model, r.model) ?? []);
      const inFolder = query.folderId === undefined ? all : all.filter((m) => m.folderId === query.folderId);
      const models = sortModels(filterModels(inFolder, query.search), query.sort ?? 'createdAt', query.order);
      const pageSize = Math.min(200, Math.max(1, query.pageSize ?? 50));
      const page = Math.max(1, query.page ?? 1);
      return { models: models.slice((page - 1) * pageSize, page * pageSize), page, pageSize, total: models.length, asOf: row.listed_at };
    },
    model(modelId) {
      const who = account();
      const row = who ? (modelById.get(who, modelId) as { model: string } | undefined) : undefined;
      return parsed(Model, row?.model);
    },
  };
}
