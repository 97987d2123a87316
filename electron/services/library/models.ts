// The models of a project: listing (folder, search, sort, pages), details, rename, move, delete.
import type { ApiClient } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import { Acknowledged, ServiceModel, ServiceModelPage } from '../api/library-schemas.ts';
import type { Model, ModelPage, ModelQuery, ModelSort } from '../../contract/schemas/library.ts';
import { ignoreNotFound } from './folders.ts';

export type { Model, ModelPage, ModelQuery, ModelSort };

export interface Models {
  list(query: ModelQuery): Promise<ModelPage>;
  get(modelId: string): Promise<Model>;
  rename(modelId: string, name: string): Promise<Model>;
  /** null takes the model out of any folder */
  move(modelId: string, folderId: string | null): Promise<Model>;
  remove(modelId: string): Promise<void>;
}

export function createModels(client: () => ApiClient): Models {
  return {
    async list(query) {
      const page = await client().call('getModels', ServiceModelPage, { query: queryOf(query) });
      // A service that ignores search or sort (they are our choice, not the spec's) still yields
      // the right list when everything fits one page; re-sorting part of a longer list would
      // disagree with the pages around it, so then the service's order stands.
      if (page.total > page.models.length) return page;
      const models = sortModels(filterModels(page.models, query.search), query.sort, query.order);
      return { ...page, models, total: models.length };
    },
    get: (modelId) => client().call('getModelData', ServiceModel, { query: { modelId } }),
    rename(modelId, name) {
      const trimmed = name.trim();
      if (!trimmed || trimmed.length > 100) throw new HostError('INVALID_INPUT', 'A model name has 1 to 100 characters');
      return client().call('updateModel', ServiceModel, { body: { modelId, name: trimmed } });
    },
    move: (modelId, folderId) => client().call('updateModel', ServiceModel, { body: { modelId, folderId } }),
    async remove(modelId) {
      await client().call('deleteModel', Acknowledged, { query: { modelId } }).catch(ignoreNotFound);
    },
  };
}

function queryOf(query: ModelQuery): Record<string, string> {
  const params: Record<string, string> = { projectId: query.projectId };
  if (query.folderId !== undefined) params.folderId = query.folderId ?? 'root';
  if (query.search?.trim()) params.search = query.search.trim();
  if (query.sort) params.sort = query.sort;
  if (query.order) params.order = query.order;
  params.page = String(Math.max(1, Math.floor(query.page ?? 1)));
  params.pageSize = String(Math.min(200, Math.max(1, Math.floor(query.pageSize ?? 50))));
  return params;
}

export function filterModels(models: Model[], search: string | undefined): Model[] {
  const needle = search?.trim().toLocaleLowerCase();
  if (!needle) return models;
  return models.filter((m) => m.name.toLocaleLowerCase().includes(needle) || (m.fileName ?? '').toLocaleLowerCase().includes(needle));
}

export function sortModels(models: Model[], sort: ModelSort | undefined, order: 'asc' | 'desc' | undefined): Model[] {
  if (!sort) return models;
  const direction = (order ?? (sort === 'name' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  const key = (m: Model): string | number => (sort === 'name' ? m.name : sort === 'sizeBytes' ? (m.sizeBytes ?? 0) : (m.createdAt ?? ''));
  // A stable sort keeps the service's tie order, so it agrees with the service's own sorting.
  return [...models].sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const compared = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { sensitivity: 'base', numeric: true });
    return compared * direction;
  });
}
