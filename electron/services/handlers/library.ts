import type { Handlers } from '../dispatch.ts';
import type { Library } from '../library/index.ts';
import { HostError } from '../api/errors.ts';
import type { PathGrants } from '../path-grants.ts';

type LibraryHandlers = Pick<Handlers, Extract<keyof Handlers, `library:${string}` | `uploads:${string}` | 'files:pick'>>;

export interface FileDialog {
  pickModels(options: { folders?: boolean }): Promise<string[] | null>;
}

export function libraryHandlers(library: Library, dialog: FileDialog | undefined, grants: PathGrants): LibraryHandlers {
  const item = (id: string) => {
    const found = library.uploads.get(id);
    if (!found) throw new HostError('INVALID_INPUT', 'No such upload');
    return found;
  };
  return {
    'library:folders': ({ projectId }) => library.folders.list(projectId),
    'library:createFolder': ({ projectId, name, parentFolderId }) => library.folders.create(projectId, name, parentFolderId ?? null),
    'library:renameFolder': ({ folderId, name }) => library.folders.rename(folderId, name),
    'library:deleteFolder': async ({ projectId, folderId }) => {
      await library.folders.remove(projectId, folderId);
      return null;
    },
    'library:models': (query) => library.models.list(query),
    'library:model': ({ modelId }) => library.models.get(modelId),
    'library:renameModel': ({ modelId, name }) => library.models.rename(modelId, name),
    'library:moveModel': ({ modelId, folderId }) => library.models.move(modelId, folderId),
    'library:deleteModel': async ({ projectId, modelId }) => {
      await library.models.remove(projectId, modelId);
      return null;
    },
    'library:modelFile': ({ modelId }) => library.modelFile(modelId),
    'library:modelPicture': ({ modelId }) => library.modelPicture(modelId),
    'uploads:enqueue': (request) => {
      grants.check(request.paths);
      return library.uploads.enqueue(request);
    },
    'uploads:list': () => library.uploads.list(),
    'uploads:pause': ({ id }) => (item(id), library.uploads.pause(id)),
    'uploads:resume': ({ id }) => (item(id), library.uploads.resume(id)),
    'uploads:cancel': ({ id }) => (item(id), library.uploads.cancel(id)),
    'uploads:retry': ({ id }) => (item(id), library.uploads.retry(id)),
    'uploads:pauseAll': () => (library.uploads.pauseAll(), null),
    'uploads:resumeAll': () => (library.uploads.resumeAll(), null),
    'uploads:clearFinished': () => (library.uploads.clearFinished(), null),
    'files:pick': async (options) => {
      const picked = (await dialog?.pickModels(options)) ?? null;
      grants.grant(picked ?? []);
      return picked;
    },
  };
}
