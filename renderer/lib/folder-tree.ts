// The service sends folders as a flat list with parent ids (docs/api-assumptions.md, row 4): the sidebar
// shows them as a tree, each under its parent and indented by its depth.
import type { Folder } from '../../electron/contract/schemas/library.ts';

export interface TreeEntry {
  folder: Folder;
  depth: number;
}

export function folderTree(folders: readonly Folder[]): TreeEntry[] {
  const known = new Set(folders.map((f) => f.folderId));
  const children = new Map<string | null, Folder[]>();
  for (const folder of folders) {
    const parent = folder.parentFolderId !== null && known.has(folder.parentFolderId) ? folder.parentFolderId : null;
    children.set(parent, [...(children.get(parent) ?? []), folder]);
  }
  const ordered: TreeEntry[] = [];
  const seen = new Set<string>();
  const visit = (parent: string | null, depth: number) => {
    for (const folder of children.get(parent) ?? []) {
      if (seen.has(folder.folderId)) continue;
      seen.add(folder.folderId);
      ordered.push({ folder, depth });
      visit(folder.folderId, depth + 1);
    }
  };
  visit(null, 0);
  // Folders whose parents loop never reach the top: listed there rather than lost.
  for (const folder of folders) {
    if (seen.has(folder.folderId)) continue;
    seen.add(folder.folderId);
    ordered.push({ folder, depth: 0 });
  }
  return ordered;
}
