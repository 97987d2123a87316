// The `resolveModelName` a batch needs, built on any paged model listing (the library service's
// `models.list`): every model under its name and its file name, and under its file name without
// extension (what a shop's SKU is matched against), lower-cased.
import { fileStem, type ProjectModels } from '../../../common/batch/sku-match.ts';
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
    const byStem = new Map<string, string[]>();
    const names = new Map<string, string>();
    const add = (keys: Map<string, string[]>, key: string | null, modelId: string) => {
      if (!key?.trim()) return;
      const lower = key.trim().toLowerCase();
      const ids = keys.get(lower) ?? [];
      if (!ids.includes(modelId)) ids.push(modelId);
      keys.set(lower, ids);
    };
    let seen = 0;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const result = await list({ projectId, page, pageSize: PAGE_SIZE });
      for (const model of result.models) {
        const id = model.modelId.toLowerCase();
        add(byName, model.name, id);
        add(byName, model.fileName, id);
        add(byStem, model.fileName ? fileStem(model.fileName) : null, id);
        names.set(id, model.name || model.fileName || id);
      }
      seen += result.models.length;
      if (result.models.length === 0 || seen >= result.total) break;
    }
    // One id where the name is unique; the list itself where it is not, so a row naming it is refused as ambiguous.
    const unique = (keys: Map<string, string[]>) => new Map([...keys].map(([name, ids]) => [name, ids.length === 1 ? ids[0] : ids]));
    return { byName: unique(byName), byStem: unique(byStem), names } satisfies ProjectModels;
  };
}
