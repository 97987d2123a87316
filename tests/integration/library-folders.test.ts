// Folders and models through the library service against the sandbox: create, rename, move and
// delete folders (with nesting and the service's refusals), and list, search, sort, page, move,
// rename and delete models.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LibraryEvent } from '../../electron/services/library/index.ts';
import { binaryStl, scratch, settle, startWorld } from './library-helpers.ts';
import type { World } from './library-helpers.ts';
import { rejection as failure } from '../host-error.ts';

let world: World;
let files: ReturnType<typeof scratch>;
before(async () => {
  world = await startWorld();
  files = scratch();
});
after(async () => {
  await world.dispose();
  files.remove();
});


describe('folders', () => {
  it('creates, nests, renames, moves and deletes folders', async () => {
    const { folders } = world.library;
    const { projectId } = world;
    assert.deepEqual(await folders.list(projectId), [], 'a new project has no folders');
    const parts = await folders.create(projectId, '  Parts ');
    assert.equal(parts.name, 'Parts');
    const gears = await folders.create(projectId, 'Gears', parts.folderId);
    const misc = await folders.create(projectId, 'Zoë’s 🧩 things');
    assert.equal(gears.parentFolderId, parts.folderId);
    const tree = await folders.tree(projectId);
    assert.deepEqual(tree.map((n) => n.name), ['Parts', 'Zoë’s 🧩 things']);
    assert.deepEqual(tree[0].children.map((n) => n.name), ['Gears']);

    assert.equal((await folders.rename(gears.folderId, 'Cogs')).name, 'Cogs');
    const moved = await folders.move(gears.folderId, misc.folderId);
    assert.equal(moved.parentFolderId, misc.folderId);
    assert.equal((await folders.move(gears.folderId, null)).parentFolderId, null);

    await folders.remove(projectId, misc.folderId);
    await folders.remove(projectId, misc.folderId); // already gone: still fine
    assert.deepEqual((await folders.list(projectId)).map((f) => f.name).sort(), ['Cogs', 'Parts']);
    assert.ok(world.events.some((e: LibraryEvent) => e.type === 'library:changed' && e.projectId === projectId));
  });

  it('passes on the service refusals: duplicate names, cycles, non-empty folders, bad names', async () => {
    const { folders } = world.library;
    const { projectId } = world;
    const a = await folders.create(projectId, 'A');
    const b = await folders.create(projectId, 'B', a.folderId);
    assert.equal((await failure(folders.create(projectId, 'a'))).status, 409, 'names are unique among siblings, whatever their case');
    assert.equal((await failure(folders.move(a.folderId, b.folderId))).status, 400, 'not into its own subfolder');
    assert.equal((await failure(folders.remove(projectId, a.folderId))).status, 409, 'not while it holds a folder');
    assert.equal((await failure(folders.create(projectId, '   '))).code, 'INVALID_INPUT');
    assert.equal((await failure(folders.create(projectId, 'bell\u0007'))).status, 400);
    assert.equal((await failure(folders.list('00000000-0000-4000-8000-000000000000'))).code, 'NO_PERMISSION');
  });
});

describe('models', () => {
  let folderId: string;
  before(async () => {
    folderId = (await world.library.folders.create(world.projectId, 'Uploads')).folderId;
    const names = ['gamma.stl', 'Alpha.stl', 'beta.stl', 'delta-part.stl', 'epsilon-part.stl'];
    const paths = names.map((name, i) => files.file(name, binaryStl(10 * (i + 1), 900 + i)));
    await world.library.uploads.enqueue({ projectId: world.projectId, folderId, paths: paths.slice(0, 3) });
    await world.library.uploads.enqueue({ projectId: world.projectId, paths: paths.slice(3) });
    assert.ok((await settle(world.library)).every((i) => i.state === 'done'));
  });

  it('lists a folder, the top level, or the whole project, sorted and paged', async () => {
    const { models } = world.library;
    const { projectId } = world;
    const inFolder = await models.list({ projectId, folderId, sort: 'name' });
    assert.deepEqual(inFolder.models.map((m) => m.name), ['Alpha', 'beta', 'gamma']);
    const top = await models.list({ projectId, folderId: null });
    assert.equal(top.total, 2);
    const bySize = await models.list({ projectId, sort: 'sizeBytes', order: 'desc' });
    assert.deepEqual(bySize.models.map((m) => m.name), ['epsilon-part', 'delta-part', 'beta', 'Alpha', 'gamma']);
    const page2 = await models.list({ projectId, sort: 'name', pageSize: 2, page: 2 });
    assert.equal(page2.total, 5);
    assert.deepEqual(page2.models.map((m) => m.name), ['delta-part', 'epsilon-part']);
  });

  it('searches by name', async () => {
    const found = await world.library.models.list({ projectId: world.projectId, search: 'PART', sort: 'name' });
    assert.deepEqual(found.models.map((m) => m.name), ['delta-part', 'epsilon-part']);
  });

  it('opens, renames, moves and deletes a model', async () => {
    const { models } = world.library;
    const { projectId } = world;
    const [alpha] = (await models.list({ projectId, search: 'alpha' })).models;
    const details = await models.get(alpha.modelId);
    assert.equal(details.format, 'stl');
    assert.equal(details.folderId, folderId);
    assert.equal((await models.rename(alpha.modelId, 'Alpha v2')).name, 'Alpha v2');
    assert.equal((await models.move(alpha.modelId, null)).folderId, null);
    assert.equal((await models.list({ projectId, folderId })).total, 2);
    await models.remove(projectId, alpha.modelId);
    assert.equal((await failure(models.get(alpha.modelId))).status, 404);
    await models.remove(projectId, alpha.modelId); // already gone: still fine
    assert.equal((await models.list({ projectId })).total, 4);
  });
});
