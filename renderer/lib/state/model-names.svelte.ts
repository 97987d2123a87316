// Names of models that orders name by id only (a batch file's modelId column): asked of the library once
// per model and session, a few at a time, so that the Orders table reads "Moon ×2" rather than an id.
import { SvelteMap } from 'svelte/reactivity';
import { GUID } from '../../../common/orders/validation.ts';
import { printdesk } from '../bridge.ts';

/** Lookups at a time: a table of orders for a few hundred models must not crowd the service. */
const CONCURRENCY = 4;

class ModelNames {
  readonly names = new SvelteMap<string, string>();
  private asked = new Set<string>();

  /** Asks for the names of these models not asked for yet; the table reads them from `names` as they come. */
  lookUp = (modelIds: Iterable<string>) => {
    const wanted = [...new Set(modelIds)].filter((id) => !this.asked.has(id) && GUID.test(id));
    wanted.forEach((id) => this.asked.add(id));
    const next = async (): Promise<void> => {
      const id = wanted.shift();
      if (!id) return;
      const found = await printdesk.library.model({ modelId: id });
      if (found.ok) this.names.set(id, found.value.name);
      else if (found.error.retryable) this.asked.delete(id);
      return next();
    };
    for (let i = 0; i < CONCURRENCY; i++) void next();
  };
}

export const modelNames = new ModelNames();
