// Progress events: at most one per 100 ms per file (the final one forced), with a rate over the
// last seconds and the time left.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createProgressMeter } from '../../electron/services/library/progress.ts';
import type { UploadProgress } from '../../electron/services/library/progress.ts';
import { folderTree } from '../../electron/services/library/folders.ts';
import { sortModels } from '../../electron/services/library/models.ts';

it('throttles progress to ten events a second and computes rate and time left', () => {
  let now = 0;
  const events: UploadProgress[] = [];
  const meter = createProgressMeter('a', 10_000_000, (e) => events.push(e), () => now);
  for (let ms = 0; ms <= 1000; ms += 5) {
    now = ms;
    meter.update(ms * 5000); // 5 MB/s
  }
  assert.equal(events.length, 11);
  const last = events.at(-1)!;
  assert.equal(last.bytesPerSecond, 5_000_000);
  assert.equal(last.etaSeconds, 1);
  meter.update(10_000_000, true);
  assert.equal(events.at(-1)!.etaSeconds, 0);
  assert.equal(events.length, 12);
});

it('builds a folder tree from the flat list, sorted, orphans at the top', () => {
  const f = (folderId: string, name: string, parentFolderId: string | null) => ({ folderId, name, parentFolderId, projectId: 'p', modelCount: 0, createdAt: null });
  const tree = folderTree([f('1', 'b', null), f('2', 'a', null), f('3', 'x10', '1'), f('4', 'x9', '1'), f('5', 'lost', 'gone')]);
  assert.deepEqual(tree.map((n) => n.name), ['a', 'b', 'lost']);
  assert.deepEqual(tree[1].children.map((n) => n.name), ['x9', 'x10']);
});

it('sorts models by name, size or date in either order', () => {
  const m = (name: string, sizeBytes: number, createdAt: string) => ({ modelId: name, projectId: null, folderId: null, name, fileName: null, format: null, sizeBytes, sha256: null, createdAt });
  const list = [m('b', 2, '2026-01-02T00:00:00Z'), m('A', 3, '2026-01-01T00:00:00Z'), m('c', 1, '2026-01-03T00:00:00Z')];
  assert.deepEqual(sortModels(list, 'name', 'asc').map((x) => x.name), ['A', 'b', 'c']);
  assert.deepEqual(sortModels(list, 'sizeBytes', 'desc').map((x) => x.name), ['A', 'b', 'c']);
  assert.deepEqual(sortModels(list, 'createdAt', undefined).map((x) => x.name), ['c', 'b', 'A']);
});
