// The `resolveModelName` a batch needs, built on any paged model listing (the library service's
// `models.list`): every model under its name and its file name, lower-cased.
import type { ResolveModelName } from './validate.ts';

interface ListedModel {
  modelId: string;
  name: string;
  fileName: string | null;
}

export type ListModels = (query: { projectId: string; page: number; pageSize: number }) => Promise<{ models: ListedModel[]; total: number }>;

const PAGE_SIZE = 200;
const MAX_PAGES = 500;

export function modelNameLookup(list: ListModels): ResolveModelName {
  return async (projectId) => {
    const byName = new Map<string, string[]>();
    const add = (key: string | null, modelId: string) => {
      if (!key) return;
      const lower = key.trim().toLowerCase();
      const ids = byName.get(lower) ?? [];
      if (!ids.includes(modelId)) ids.push(modelId);
      byName.set(lower, ids);
    };
    let seen = 0;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const result = await list({ projectId, page, pageSize: PAGE_SIZE });
      for (const model of result.models) {
        add(model.name, model.modelId);
        add(model.fileName, model.modelId);
      }
      seen += result.models.length;
      if (result.models.length === 0 || seen >= result.total) break;
    }
    // One id where the name is unique; the list itself where it is not, so a row naming it is refused as ambiguous.
    return new Map([...byName].map(([name, ids]) => [name, ids.length === 1 ? ids[0] : ids]));
  };
}
