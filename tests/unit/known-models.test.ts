import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createKnownModels } from '../../electron/services/library/known-models.ts';
import type { Model } from '../../electron/contract/schemas/library.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';

const model = (modelId: string, name: string, folderId: string | null = null, createdAt = '2026-01-01T00:00:00Z'): Model => ({
  modelId, projectId: 'p', folderId, name, fileName: `${name}.stl`, format: 'stl', sizeBytes: name.length, sha256: null, createdAt,
});
const page = (models: Model[], total = models.length) => ({ models, page: 1, pageSize: 50, total });

function world() {
  const db = openDatabase(':memory:');
  let account: string | null = 'a';
  const known = createKnownModels(db, () => account, () => Date.parse('2026-11-24T10:00:00Z'));
  return { db, known, as: (who: string | null) => void (account = who) };
}

test('a whole listing is what the project holds; a search, a later page or a partial page only adds', () => {
  const { known } = world();
  known.sawPage({ projectId: 'p' }, page([model('1', 'Bracket'), model('2', 'Knob')]));
  known.sawPage({ projectId: 'p', search: 'zzz' }, page([]));
  known.sawPage({ projectId: 'p', page: 2 }, page([]));
  known.sawPage({ projectId: 'p' }, page([model('3', 'Lid')], 5));
  assert.deepEqual(known.page({ projectId: 'p', sort: 'name' })?.models.map((m) => m.name), ['Bracket', 'Knob', 'Lid']);
  known.sawPage({ projectId: 'p' }, page([model('2', 'Knob')]));
  const now = known.page({ projectId: 'p' });
  assert.deepEqual(now?.models.map((m) => m.modelId), ['2'], 'deleted by someone else, so gone from the whole listing');
  assert.equal(now?.asOf, '2026-11-24T10:00:00.000Z');
});

test("a folder's whole listing says what left that folder, and only that folder", () => {
  const { known } = world();
  known.sawPage({ projectId: 'p' }, page([model('1', 'Bracket', 'f'), model('2', 'Knob', 'f'), model('3', 'Lid')]));
  known.sawPage({ projectId: 'p', folderId: 'f' }, page([model('1', 'Bracket', 'f')]));
  assert.deepEqual(known.page({ projectId: 'p', sort: 'name' })?.models.map((m) => m.name), ['Bracket', 'Lid']);
  assert.deepEqual(known.page({ projectId: 'p', folderId: null })?.models.map((m) => m.name), ['Lid']);
  assert.deepEqual(known.page({ projectId: 'p', folderId: 'f' })?.models.map((m) => m.name), ['Bracket']);
});

test('listings are searched, sorted and paged as the service would', () => {
  const { known } = world();
  const models = Array.from({ length: 7 }, (_, i) => model(String(i), `Part ${i + 1}`, null, `2026-01-0${i + 1}T00:00:00Z`));
  known.sawPage({ projectId: 'p' }, page(models));
  const second = known.page({ projectId: 'p', pageSize: 3, page: 2 });
  assert.deepEqual(second?.models.map((m) => m.name), ['Part 4', 'Part 3', 'Part 2'], 'newest first by default');
  assert.equal(second?.total, 7);
  assert.deepEqual(known.page({ projectId: 'p', search: 'part 7' })?.models.map((m) => m.modelId), ['6']);
  assert.deepEqual(known.page({ projectId: 'p', sort: 'name', order: 'desc', pageSize: 2 })?.models.map((m) => m.name), ['Part 7', 'Part 6']);
});

test("one account never sees another's, and nothing is kept while signed out", () => {
  const { known, as } = world();
  known.sawPage({ projectId: 'p' }, page([model('1', 'Bracket')]));
  known.sawFolders('p', [{ folderId: 'f', projectId: 'p', parentFolderId: null, name: 'Parts', modelCount: 0, createdAt: null }]);
  as('b');
  assert.equal(known.page({ projectId: 'p' }), null);
  assert.equal(known.folders('p'), null);
  assert.equal(known.model('1'), null);
  as(null);
  known.sawPage({ projectId: 'p' }, page([]));
  as('a');
  assert.equal(known.model('1')?.name, 'Bracket');
  assert.deepEqual(known.folders('p')?.map((f) => f.name), ['Parts']);
});

test('single models seen, renamed or deleted update the record; a corrupt row is skipped, not thrown', () => {
  const { db, known } = world();
  known.sawPage({ projectId: 'p' }, page([model('1', 'Bracket'), model('2', 'Knob')]));
  known.saw({ ...model('1', 'Wall bracket'), folderId: 'f' });
  known.forget('2');
  assert.equal(known.model('1')?.folderId, 'f');
  assert.equal(known.model('2'), null);
  db.prepare("UPDATE known_models SET model = '{\"modelId\":1}' WHERE model_id = '1'").run();
  assert.equal(known.model('1'), null);
  assert.deepEqual(known.page({ projectId: 'p' })?.models, []);
});
