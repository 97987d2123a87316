// Whether a file is worth hashing before it is sent. A duplicate has exactly the size of what it
// duplicates, so unless the queue or the project holds something of that size, the file goes at
// once and is hashed on the way. A miss costs bytes, never a second model: the service still
// recognises the bytes it already has when a session without a declared hash completes. And a copy
// of a file the queue is still sending waits for that one to arrive (or not) before it is settled.
import type { ApiClient } from '../api/client.ts';
import { ServiceModelPage } from '../api/library-schemas.ts';
import type { StoredItem, UploadStore } from './upload-store.ts';

/** Whether the project may hold a model of this size at the service (true when that cannot be known). */
export interface ServiceSizes {
  has(projectId: string, sizeBytes: number): Promise<boolean>;
  /** Files added from now on are checked against the project as it is then. */
  forget(projectId: string): void;
}

const PAGE_SIZE = 200;
// A project this large costs more requests to list than hashing a file would.
const MAX_PAGES = 10;
// The files of one drop starting together share one listing; a model added elsewhere since is
// still recognised by the service, at the cost of its bytes.
const FRESH_MS = 10_000;

export function serviceSizes(client: () => ApiClient, now: () => number): ServiceSizes {
  const cache = new Map<string, { at: number; sizes: Promise<Set<number> | null> }>();
  return {
    async has(projectId, sizeBytes) {
      const api = client();
      const key = `${api.baseUrl} ${projectId}`;
      let entry = cache.get(key);
      if (!entry || now() - entry.at > FRESH_MS) {
        entry = { at: now(), sizes: listSizes(api, projectId) };
        cache.set(key, entry);
      }
      const sizes = await entry.sizes;
      return sizes === null || sizes.has(sizeBytes);
    },
    forget: (projectId) => cache.delete(`${client().baseUrl} ${projectId}`),
  };
}

/** Every model size in the project; null when not all can be known (too many, one without a size, a failure). */
async function listSizes(api: ApiClient, projectId: string): Promise<Set<number> | null> {
  const sizes = new Set<number>();
  try {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const result = await api.call('getModels', ServiceModelPage, { query: { projectId, page: String(page), pageSize: String(PAGE_SIZE) } });
      for (const model of result.models) {
        if (model.sizeBytes === null) return null;
        sizes.add(model.sizeBytes);
      }
      if (result.models.length === 0 || page * result.pageSize >= result.total) return sizes;
    }
    return null;
  } catch {
    return null;
  }
}

export interface DedupDeps {
  store: UploadStore;
  /** files up to this size go in one request */
  chunkBytes: number;
  serviceSizes: ServiceSizes;
}

export async function worthHashingFirst(item: StoredItem, deps: DedupDeps): Promise<boolean> {
  if (item.allowDuplicate) return false;
  // One request either way: a declared hash lets the service answer a duplicate before reading the
  // body, and hashing a file this small costs next to nothing.
  if (item.sizeBytes <= deps.chunkBytes) return true;
  if (deps.store.sameSize(item)) return true;
  return deps.serviceSizes.has(item.projectId, item.sizeBytes);
}

/** How often a file waiting for its copy looks again; the copy is on its way, so this is short. */
const TWIN_POLL_MS = 250;

/** What waiting for a copy needs of the job. */
export interface TwinWait {
  item: StoredItem;
  store: UploadStore;
  signal: AbortSignal;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const inFlight = (item: StoredItem) => item.state === 'hashing' || item.state === 'uploading';

/**
 * An earlier item with these bytes, once it is done: this file then needs sending no more. One still on
 * its way is waited for, since it may yet fail and a copy must not claim a model that never came; so is
 * an earlier one of this size sent without a hash, which may turn out to have these bytes. Undefined
 * means send this file: no copy, or one that is not going (queued behind, paused, failed).
 */
export async function finishedTwin(wait: TwinWait, sha256: string): Promise<StoredItem | undefined> {
  for (;;) {
    const twin = wait.store.sameContent(wait.item, sha256);
    if (twin?.state === 'done') return twin;
    // Only items holding a worker of their own are waited for: one merely queued might need this one's.
    const pending = (twin && inFlight(twin)) || wait.store.unhashedTwinInFlight(wait.item);
    if (!pending) return undefined;
    await wait.sleep(TWIN_POLL_MS, wait.signal);
  }
}
