// The upload queue against a real sandbox: the corpus goes up intact, progress is throttled, a
// file is recognised by its hash (in the queue and in the project), and broken files get clear
// per-file errors while the others go on.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { UploadItem, UploadProgress } from '../../electron/services/library/index.ts';
import { binaryStl, corpus, scratch, settle, startWorld } from './library-helpers.ts';
import type { World } from './library-helpers.ts';
import { CUBE_OBJECT, modelXml, package3mf } from '../threemf-fixtures.ts';

let world: World;
let files: ReturnType<typeof scratch>;
before(async () => {
  world = await startWorld({ uploads: { chunkBytes: 256 * 1024 } });
  files = scratch();
});
after(async () => {
  await world.dispose();
  files.remove();
});

const sha = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const modelFiles = (dir: string) => fs.readdirSync(corpus(dir)).filter((f) => /\.(stl|obj|3mf)$/.test(f)).map((f) => corpus(dir, f));

describe('uploading the corpus', () => {
  it('sends every STL, OBJ and 3MF file and the service stores the same bytes', async () => {
    const paths = [...modelFiles('stl'), ...modelFiles('obj'), ...modelFiles('3mf')];
    const result = await world.library.uploads.enqueue({ projectId: world.projectId, paths });
    assert.equal(result.rejected.length, 0, JSON.stringify(result.rejected));
    assert.equal(result.added.length, paths.length);
    const items = await settle(world.library);
    const byPath = new Map(items.map((i) => [i.path, i]));
    const models = await world.sandbox.operator.listModels(world.projectId);
    for (const file of paths) {
      const item = byPath.get(file)!;
      assert.equal(item.state, 'done', `${file}: ${JSON.stringify(item.error)}`);
      assert.equal(item.sha256, sha(file));
      const model = models.find((m) => m.modelId === item.modelId);
      if (item.duplicate) continue; // Star and StarWithEmptyHeader may share bytes with another file
      assert.ok(model, `no model for ${file}`);
      assert.equal(model.sha256, item.sha256);
      assert.equal(model.sizeBytes, fs.statSync(file).size);
      assert.equal(model.fileName, path.basename(file));
    }
    const formats = new Set(models.map((m) => m.format));
    assert.deepEqual([...formats].sort(), ['3mf', 'obj', 'stl']);
  });

  it('sent progress events no more than ten a second per file, with rate and time left', () => {
    const progress = world.timed.filter((t) => t.event.type === 'upload:progress') as { event: UploadProgress; at: number }[];
    assert.ok(progress.length > 0);
    const byFile = new Map<string, typeof progress>();
    for (const t of progress) byFile.set(t.event.id, [...(byFile.get(t.event.id) ?? []), t]);
    for (const events of byFile.values()) {
      const last = events.at(-1)!.event;
      assert.equal(last.bytesSent, last.sizeBytes);
      assert.equal(last.etaSeconds, 0);
      // The final event is forced out; every other one waits 100 ms after the one before it.
      for (let i = 1; i < events.length - 1; i++) assert.ok(events[i].at - events[i - 1].at >= 99, `events ${events[i].at - events[i - 1].at} ms apart`);
    }
  });
});

describe('recognising files already sent', () => {
  it('does not queue the same file twice', async () => {
    const file = corpus('stl', 'Moon-binary.stl');
    const result = await world.library.uploads.enqueue({ projectId: world.projectId, paths: [file, file] });
    assert.equal(result.added.length, 0);
    assert.equal(result.alreadyQueued.length, 1, 'the corpus run queued it already');
  });

  it('recognises a copy under another name by its hash, without a new model', async () => {
    const before = (await world.sandbox.operator.listModels(world.projectId)).length;
    const copy = files.file('copy-of-moon.stl', fs.readFileSync(corpus('stl', 'Moon-binary.stl')));
    const result = await world.library.uploads.enqueue({ projectId: world.projectId, paths: [copy] });
    assert.equal(result.added.length, 1);
    const [item] = (await settle(world.library)).filter((i) => i.path === copy);
    assert.equal(item.state, 'done');
    assert.equal(item.duplicate, true);
    assert.equal((await world.sandbox.operator.listModels(world.projectId)).length, before);
  });

  it('asks the project, so bytes it already has are not sent again', async () => {
    // Another client put these bytes in the project; this queue has never seen them.
    const bytes = binaryStl(20_000, 7);
    const theirs = files.file('theirs.stl', bytes);
    await world.sandbox.operator.addModel(world.projectId, theirs);
    const ours = files.file('ours.stl', bytes);
    const sessions = (await world.sandbox.operator.listUploads()).length;
    await world.library.uploads.enqueue({ projectId: world.projectId, paths: [ours] });
    const item = (await settle(world.library)).find((i) => i.path === ours)!;
    assert.equal(item.state, 'done');
    assert.equal(item.duplicate, true);
    assert.equal((await world.sandbox.operator.listUploads()).length, sessions, 'no upload session was opened');
  });

  it('uploads again when asked to, creating a second model', async () => {
    const file = corpus('stl', 'Cube-binary.stl');
    const result = await world.library.uploads.enqueue({ projectId: world.projectId, paths: [file], allowDuplicate: true });
    assert.equal(result.added.length, 1);
    const item = (await settle(world.library)).find((i) => i.id === result.added[0].id)!;
    assert.equal(item.state, 'done');
    assert.equal(item.duplicate, false);
    const cubes = (await world.sandbox.operator.listModels(world.projectId)).filter((m) => m.sha256 === item.sha256);
    assert.equal(cubes.length, 2);
  });
});

describe('checks before sending', () => {
  it('gives each broken file a clear error and sends the rest', async () => {
    const rear = fs.readFileSync(corpus('stl', 'rear_case-binary.stl'));
    const broken = {
      empty: files.file('bad/empty.stl', ''),
      truncated: files.file('bad/truncated.stl', rear.subarray(0, rear.length - 5000)),
      renamed: files.file('bad/cow.stl', fs.readFileSync(corpus('obj', 'cow.obj'))),
      text: files.file('bad/notes.txt', 'hello'),
      zip: files.file('bad/broken.3mf', Buffer.from('PK\u0003\u0004 not really a zip')),
      missing: path.join(files.dir, 'bad', 'missing.stl'),
    };
    const good = files.file('bad/good.stl', binaryStl(100, 99));
    const result = await world.library.uploads.enqueue({ projectId: world.projectId, paths: [...Object.values(broken), good] });
    const reason = (file: string) => result.rejected.find((r) => r.path === file);
    assert.match(reason(broken.empty)!.message, /empty/);
    assert.match(reason(broken.truncated)!.message, /truncated/);
    assert.match(reason(broken.renamed)!.message, /named \.stl but its content is OBJ/);
    assert.match(reason(broken.text)!.message, /only \.stl, \.obj and \.3mf/);
    assert.match(reason(broken.zip)!.message, /3MF/);
    assert.equal(reason(broken.missing)!.code, 'FILE_UNREADABLE');
    for (const key of ['empty', 'truncated', 'renamed', 'text', 'zip'] as const) assert.equal(reason(broken[key])!.code, 'FILE_INVALID');
    assert.equal(result.added.length, 1);
    const items = await settle(world.library);
    assert.equal(items.find((i) => i.path === good)!.state, 'done');
    const failed = items.filter((i) => i.path.includes(`${path.sep}bad${path.sep}`) && i.state === 'failed');
    assert.equal(failed.length, 6, 'the error list shows every broken file');
  });

  it('refuses files over the size limit', async () => {
    const small = await startWorld({ uploads: { maxFileBytes: 1000 } });
    try {
      const result = await small.library.uploads.enqueue({ projectId: small.projectId, paths: [corpus('stl', 'Moon-binary.stl')] });
      assert.match(result.rejected[0].message, /^Moon-binary\.stl is 5\.7 KB; the service takes files up to 1000 B$/);
    } finally {
      await small.dispose();
    }
  });

  it('walks a dropped folder for model files, skipping the rest', async () => {
    const dir = files.file('drop/a/one.stl', binaryStl(10, 501));
    files.file('drop/a/b/two.obj', 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    files.file('drop/readme.md', '# not a model');
    files.file('drop/.hidden.stl', binaryStl(10, 502));
    const result = await world.library.uploads.enqueue({ projectId: world.projectId, paths: [path.dirname(path.dirname(dir))] });
    assert.deepEqual(result.added.map((i: UploadItem) => path.basename(i.path)).sort(), ['one.stl', 'two.obj']);
    assert.equal(result.rejected.length, 0);
    await settle(world.library);
  });
});

describe('a 3MF that breaks the 3MF specification', () => {
  it('is held with the reason before anything is sent, and goes when the user says so', async () => {
    // Two resources under one id: a service validating as the 3MF Consortium's library does may refuse it.
    const broken = files.file('two-ids.3mf', package3mf({ model: modelXml(`<m:colorgroup id="1"><m:color color="#FF0000"/></m:colorgroup>${CUBE_OBJECT}`) }));
    const good = files.file('fine.3mf', package3mf({ model: modelXml(CUBE_OBJECT.replace('type="model"', 'type="model" name="fine"')) }));
    const result = await world.library.uploads.enqueue({ projectId: world.projectId, paths: [broken, good] });
    assert.deepEqual(result.added.map((item: UploadItem) => path.basename(item.path)), ['fine.3mf']);
    assert.deepEqual(result.held.map((file) => [file.fileName, file.path]), [['two-ids.3mf', broken]]);
    assert.match(result.held[0].message, /^This 3MF breaks the 3MF specification: Resource id 1 is used twice: by <m:colorgroup> \(line 4\) and by <object>; the service may refuse it\.$/);
    assert.equal(result.rejected.length, 0);
    assert.ok(!world.library.uploads.list().some((item) => item.path === broken), 'nothing of it is queued');
    const anyway = await world.library.uploads.enqueue({ projectId: world.projectId, paths: [broken], acceptSpecBreaches: true });
    assert.deepEqual(anyway.held, []);
    assert.equal(anyway.added.length, 1);
    const items = await settle(world.library);
    assert.equal(items.find((item) => item.path === broken)?.state, 'done', 'the service itself takes it');
  });
});
