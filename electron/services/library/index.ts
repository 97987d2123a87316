// The library service: folders, models and the upload queue of the selected service, behind one
// factory the host wires to the contract. Nothing here imports Electron.
import type { ApiClient, TokenSource } from '../api/client.ts';
import { isNotFound, isUnreachable } from '../api/errors.ts';
import type { Db } from '../storage/database.ts';
import { createFolders, folderTree } from './folders.ts';
import { createKnownModels, type KnownPage } from './known-models.ts';
import { sharedWhileRunning } from '../../../common/shared-calls.ts';
import { createModelCache, MODEL_CACHE_BYTES } from './model-cache.ts';
import { createModelFiles } from './model-files.ts';
import { createModelPictures, dropUnpackedPictures } from './model-pictures.ts';
import { createPictureReader } from '../models/model-picture.ts';
import { PREVIEW_PROXY_TRIANGLES } from '../../../common/models/index.ts';
import { join } from 'node:path';
import { createModels, type ModelPage, type ModelQuery } from './models.ts';
import { createUploadQueue } from './upload-queue.ts';
import type { UploadEvent, UploadQueueDeps } from './upload-queue.ts';

export type { Folder, FolderNode } from './folders.ts';
export type { Model, ModelPage, ModelQuery, ModelSort } from './models.ts';
export type { KnownPage } from './known-models.ts';
export type { UploadProgress } from './progress.ts';
export type { Rejection } from './preflight.ts';
export type { EnqueueResult } from '../../contract/schemas/library.ts';
export type { EnqueueRequest, UploadEvent } from './upload-queue.ts';
export type { UploadError, UploadItem, UploadState } from '../../contract/schemas/library.ts';
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
  /** true while uploads may not start (Work offline); they start with the next start() */
  held?: () => boolean;
  /** tuning, mostly for tests and benches */
  uploads?: Pick<UploadQueueDeps, 'concurrency' | 'chunkBytes' | 'maxAttempts' | 'maxFileBytes' | 'sleep' | 'random'>;
}

export type Library = ReturnType<typeof createLibrary>;

export function createLibrary(deps: LibraryDeps) {
  const folders = createFolders(deps.client);
  const models = createModels(deps.client);
  const known = createKnownModels(deps.db, deps.account, deps.now);
  const queue = createUploadQueue({
    ...deps.uploads,
    client: deps.client,
    account: deps.account,
    tokens: deps.tokens,
    db: deps.db,
    now: deps.now,
    held: deps.held,
    onEvent(event) {
      deps.onEvent(event);
      // A finished upload adds a model: views of that project should refresh.
      if (event.type === 'upload:changed' && event.item.state === 'done' && !event.item.duplicate) {
        deps.onEvent({ type: 'library:changed', projectId: event.item.projectId });
        if (event.item.modelId) modelPictures.prepare(event.item.modelId, event.item.sizeBytes);
      }
    },
  });
  const changed = <T>(projectId: string | null | undefined, value: T): T => {
    if (projectId) deps.onEvent({ type: 'library:changed', projectId });
    return value;
  };

  const seen = <T>(value: T, record: (value: T) => void): T => {
    record(value);
    return value;
  };
  const listFolders = (projectId: string) =>
    orLastSeen(async () => seen(await folders.list(projectId), (list) => known.sawFolders(projectId, list)), () => known.folders(projectId));
  // Opening a model asks for its record, its file and its picture at once: the service is asked once.
  const getModel = sharedWhileRunning((modelId: string) =>
    orLastSeen(async () => seen(await models.get(modelId).catch(forgetIfGone(modelId)), known.saw), () => known.model(modelId)));
  /** A picture is kept by the model's hash, which never changes: the record last seen names it without a request. */
  const pictureRecord = async (modelId: string) => {
    const last = known.model(modelId);
    return last?.sha256 ? last : getModel(modelId);
  };
  const forgetIfGone = (modelId: string) => (error: unknown) => {
    if (isNotFound(error)) known.forget(modelId);
    throw error;
  };
  const modelFile = createModelFiles({
    client: deps.client, uploads: queue.stored, model: getModel, cache: deps.modelCacheDir ? createModelCache(deps.modelCacheDir) : undefined,
  });
  const pictures = createPictureReader();
  // Pictures are about a megabyte each: a tenth of the models' room, in a folder per proxy size and packing.
  const pictureCache = deps.modelCacheDir ? createModelCache(join(deps.modelCacheDir, `pictures-packed-${PREVIEW_PROXY_TRIANGLES}`), MODEL_CACHE_BYTES / 10) : undefined;
  if (deps.modelCacheDir) void dropUnpackedPictures(deps.modelCacheDir).catch(() => undefined);
  const modelPictures = createModelPictures({ model: pictureRecord, modelFile, reader: pictures, cache: pictureCache });

  return {
    folders: {
      list: listFolders,
      tree: async (projectId: string) => folderTree(await listFolders(projectId)),
      create: async (projectId: string, name: string, parentFolderId?: string | null) => changed(projectId, await folders.create(projectId, name, parentFolderId)),
      rename: async (folderId: string, name: string) => { const f = await folders.rename(folderId, name); return changed(f.projectId, f); },
      move: async (folderId: string, parentFolderId: string | null) => { const f = await folders.move(folderId, parentFolderId); return changed(f.projectId, f); },
      remove: async (projectId: string, folderId: string) => changed(projectId, await folders.remove(folderId)),
    },
    models: {
      /** Offline, a project listed before is answered from what was last seen (a KnownPage, with `asOf`). */
      list: (query: ModelQuery): Promise<ModelPage | KnownPage> =>
        orLastSeen(async () => seen(await models.list(query), (page) => known.sawPage(query, page)), () => known.page(query)),
      get: getModel,
      rename: async (modelId: string, name: string) => { const m = seen(await models.rename(modelId, name), known.saw); return changed(m.projectId, m); },
      move: async (modelId: string, folderId: string | null) => { const m = seen(await models.move(modelId, folderId), known.saw); return changed(m.projectId, m); },
      remove: async (projectId: string, modelId: string) => { await models.remove(modelId); known.forget(modelId); return changed(projectId, undefined); },
    },
    uploads: {
      enqueue: queue.enqueue,
      list: queue.list,
      pathsInUse: queue.pathsInUse,
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
    modelFile,
    /** A large model's first picture, sent ahead of its file: null when it has none or its file is not here yet. */
    modelPicture: modelPictures.picture,
    /** Restores the signed-in account's stored queue and starts it (after sign-in). */
    start: queue.start,
    /** Stops the account's uploads at sign-out; they resume at its next start(). */
    suspend: queue.suspend,
    /** Stops uploads for shutdown; stored states are kept for the next start(). */
    close: async () => {
      await queue.close();
      await pictures.close();
    },
  };
}

/** The service's answer; when it cannot be reached, what was last seen, if anything was. */
async function orLastSeen<T>(ask: () => Promise<T>, lastSeen: () => T | null): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    const known = isUnreachable(error) ? lastSeen() : null;
    if (known) return known;
    throw error;
  }
}
