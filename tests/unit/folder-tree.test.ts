// The sidebar's folder tree from the service's flat list: children under their parents, deep nesting kept,
// and folders whose parents loop or are missing still listed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { folderTree } from '../../renderer/lib/folder-tree.ts';
import type { Folder } from '../../electron/contract/schemas/library.ts';

const folder = (folderId: string, parentFolderId: string | null): Folder =>
  ({ folderId, parentFolderId, projectId: 'p', name: folderId, modelCount: 0, createdAt: null, updatedAt: null }) as unknown as Folder;

test('children follow their parent, indented by depth, at any depth', () => {
  const chain = Array.from({ length: 12 }, (_, i) => folder(`f${i}`, i === 0 ? null : `f${i - 1}`));
  const tree = folderTree([folder('child', 'parent'), folder('parent', null), ...chain.reverse()]);
  const names = tree.map((e) => `${e.folder.folderId}:${e.depth}`);
  assert.deepEqual(names.slice(0, 2), ['parent:0', 'child:1']);
  assert.equal(tree.find((e) => e.folder.folderId === 'f11')?.depth, 11);
  assert.equal(tree.length, 14);
});

test('folders in a parent loop, or under a parent not in the list, are listed at the top', () => {
  const tree = folderTree([folder('a', 'b'), folder('b', 'a'), folder('self', 'self'), folder('orphan', 'gone')]);
  assert.deepEqual(tree.map((e) => e.folder.folderId).sort(), ['a', 'b', 'orphan', 'self']);
  assert.ok(tree.every((e) => e.depth === 0));
});
