// A project's folders (GET /Folder/GetFolders and the folder operations of docs/api-assumptions.md).
// The service returns a flat list; folderTree builds the nested view a sidebar draws.
import type { ApiClient } from '../api/client.ts';
import { HostError, isNotFound } from '../api/errors.ts';
import { Acknowledged, FolderList, ServiceFolder } from '../api/library-schemas.ts';
import type { Folder } from '../../contract/schemas/library.ts';

export type { Folder };

export interface FolderNode extends Folder {
  children: FolderNode[];
}

export interface Folders {
  list(projectId: string): Promise<Folder[]>;
  create(projectId: string, name: string, parentFolderId?: string | null): Promise<Folder>;
  rename(folderId: string, name: string): Promise<Folder>;
  /** null moves the folder to the top of the project */
  move(folderId: string, parentFolderId: string | null): Promise<Folder>;
  /** Only an empty folder can be deleted; a folder already gone counts as deleted. */
  remove(folderId: string): Promise<void>;
}

export function createFolders(client: () => ApiClient): Folders {
  return {
    list: (projectId) => client().call('getFolders', FolderList, { query: { projectId } }),
    create: (projectId, name, parentFolderId = null) =>
      client().call('createFolder', ServiceFolder, { body: { projectId, name: checkedName(name), parentFolderId } }),
    rename: (folderId, name) => client().call('renameFolder', ServiceFolder, { body: { folderId, name: checkedName(name) } }),
    move: (folderId, parentFolderId) => client().call('moveFolder', ServiceFolder, { body: { folderId, parentFolderId } }),
    async remove(folderId) {
      await client().call('deleteFolder', Acknowledged, { query: { folderId } }).catch(ignoreNotFound);
    },
  };
}

/** Nested folders, siblings sorted by name; a folder whose parent is missing is shown at the top. */
export function folderTree(folders: readonly Folder[]): FolderNode[] {
  const nodes = new Map(folders.map((f) => [f.folderId, { ...f, children: [] as FolderNode[] }]));
  const roots: FolderNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentFolderId ? nodes.get(node.parentFolderId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const sort = (list: FolderNode[]) => {
    list.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }));
    list.forEach((n) => sort(n.children));
  };
  sort(roots);
  return roots;
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new HostError('INVALID_INPUT', 'A folder needs a name');
  if (trimmed.length > 100) throw new HostError('INVALID_INPUT', 'A folder name has at most 100 characters');
  return trimmed;
}

/** Deleting what is already gone is what the user wanted. */
export function ignoreNotFound(error: unknown): void {
  if (isNotFound(error)) return;
  throw error;
}
