// The library service: folders, models and the upload queue of the selected service, behind one
// factory the host wires to the contract. Nothing here imports Electron.
import type { ApiClient, TokenSource } from '../api/client.ts';
import type { Db } from '../storage/database.ts';
import { createFolders, folderTree } from './folders.ts';
import { createModelCache } from './model-cache.ts';
import { createModelFiles } from './model-files.ts';
import { createModels } from './models.ts';
import { createUploadQueue } from './upload-queue.ts';
import type { UploadEvent, UploadQueueDeps } from './upload-queue.ts';

export type { Folder, FolderNode } from './folders.ts';
export type { Model, ModelPage, ModelQuery, ModelSort } from './models.ts';
export type { UploadProgress } from './progress.ts';
export type { Rejection } from './preflight.ts';
export type { EnqueueRequest, EnqueueResult, UploadEvent } from './upload-queue.ts';
export type { UploadError, UploadItem, UploadState } from './upload-store.ts';
export { folderTree };

/** Events for the renderer: queue items changed or removed, throttled progress, library contents changed. */
export type LibraryEvent = UploadEvent | { type: 'library:changed'; projectId: string };

export interface LibraryDeps {
  /** the client of the service chosen in settings */
  client: () => ApiClient;
  /** the signed-in account (service and e-mail), whose upload queue is shown and sent; null while signed out */
  account: () => string | null;
  /** the session's token source; uploads need it (the JSON calls get it through the client) */
  tokens?: TokenSource;
  /** the app's SQLite database (electron/storage/database.ts); the queue keeps its tables there */
  db: Db;
  now?: () => number;
  onEvent: (event: LibraryEvent) => void;
  /** where models downloaded for previews are kept; none, and each preview downloads again */
  modelCacheDir?: string;
  /** tuning, mostly for tests and benches */
  uploads?: Pick<UploadQueueDeps, 'concurrency' | 'chunkBytes' | 'maxAttempts' | 'maxFileBytes' | 'sleep' | 'random'>;
}

export type Library = ReturnType<typeof createLibrary>;

export function createLibrary(deps: LibraryDeps) {
  const folders = createFolders(deps.client);
  const models = createModels(deps.client);
  const queue = createUploadQueue({
    ...deps.uploads,
    client: deps.client,
    account: deps.account,
    tokens: deps.tokens,
    db: deps.db,
    now: deps.now,
    onEvent(event) {
      deps.onEvent(event);
      // A finished upload adds a model: views of that project should refresh.
      if (event.type === 'upload:changed' && event.item.state === 'done' && !event.item.duplicate) {
        deps.onEvent({ type: 'library:changed', projectId: event.item.projectId });
      }
    },
  });
  const changed = <T>(projectId: string | null | undefined, value: T): T => {
    if (projectId) deps.onEvent({ type: 'library:changed', projectId });
    return value;
  };

  return {
    folders: {
      list: folders.list,
      tree: async (projectId: string) => folderTree(await folders.list(projectId)),
      create: async (projectId: string, name: string, parentFolderId?: string | null) => changed(projectId, await folders.create(projectId, name, parentFolderId)),
      rename: async (folderId: string, name: string) => { const f = await folders.rename(folderId, name); return changed(f.projectId, f); },
      move: async (folderId: string, parentFolderId: string | null) => { const f = await folders.move(folderId, parentFolderId); return changed(f.projectId, f); },
      remove: async (projectId: string, folderId: string) => changed(projectId, await folders.remove(folderId)),
    },
    models: {
      list: models.list,
      get: models.get,
      rename: async (modelId: string, name: string) => { const m = await models.rename(modelId, name); return changed(m.projectId, m); },
      move: async (modelId: string, folderId: string | null) => { const m = await models.move(modelId, folderId); return changed(m.projectId, m); },
      remove: async (projectId: string, modelId: string) => changed(projectId, await models.remove(modelId)),
    },
    uploads: {
      enqueue: queue.enqueue,
      list: queue.list,
      get: queue.get,
      pause: queue.pause,
      resume: queue.resume,
      cancel: queue.cancel,
      retry: queue.retry,
      pauseAll: queue.pauseAll,
      resumeAll: queue.resumeAll,
      clearFinished: queue.clearFinished,
      idle: queue.idle,
    },
    /** A model's bytes for its preview: the uploaded file, else the service's copy; null if neither. */
    modelFile: createModelFiles({
      client: deps.client, uploads: queue.list, model: models.get, cache: deps.modelCacheDir ? createModelCache(deps.modelCacheDir) : undefined,
    }),
    /** Restores the signed-in account's stored queue and starts it (after sign-in). */
    start: queue.start,
    /** Stops the account's uploads at sign-out; they resume at its next start(). */
    suspend: queue.suspend,
    /** Stops uploads for shutdown; stored states are kept for the next start(). */
    close: queue.close,
  };
}
