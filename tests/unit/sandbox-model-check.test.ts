// The sandbox's own check of a received model file (docs/api-assumptions.md, "Upload of a model"): it shares
// no code with the client's pre-upload check, so each is tested on its own and a bug in one shows against the other.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { strToU8, zipSync } from 'fflate';
import { checkReceivedFile } from '../../sandbox/model-check.ts';
import { makeTempDir } from '../../sandbox/testing.ts';
import { CORPUS } from '../corpus.ts';

const dir = makeTempDir('printdesk-model-check-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const read = (...parts: string[]) => fs.readFileSync(path.join(CORPUS, ...parts));

async function check(fileName: string, bytes: Uint8Array) {
  const file = path.join(dir, 'received');
  fs.writeFileSync(file, bytes);
  return checkReceivedFile(file, fileName, bytes.length);
}

async function reason(fileName: string, bytes: Uint8Array): Promise<string> {
  const result = await check(fileName, bytes);
  assert.equal(result.ok, false, `${fileName} passed`);
  return result.ok ? '' : result.reason;
}

describe("the sandbox's model check", () => {
  for (const format of ['stl', 'obj', '3mf'] as const) {
    it(`takes every ${format} file of the corpus as ${format}`, async () => {
      for (const name of fs.readdirSync(path.join(CORPUS, format)).filter((f) => f.endsWith(`.${format}`))) {
        assert.deepEqual(await check(name.toUpperCase(), read(format, name)), { ok: true, format }, name);
      }
    });
  }

  it('reads a binary STL by its size: trailing bytes pass, whole facets the count left out do not', async () => {
    const moon = read('stl', 'Moon-binary.stl');
    assert.equal((await check('m.stl', Buffer.concat([moon, Buffer.alloc(49)]))).ok, true);
    assert.match(await reason('m.stl', Buffer.concat([moon, Buffer.alloc(100)])), /^The header declares [\d,]+ facets but the file holds [\d,]+ \(100 more bytes than declared\)$/);
    const rear = read('stl', 'rear_case-binary.stl');
    assert.equal(await reason('t.stl', rear.subarray(0, 50_000)), 'The file is truncated: the header declares 18,808 facets (940,484 bytes) but it ends after 50,000 bytes, inside facet 999');
    assert.equal(await reason('c.stl', rear.subarray(0, 84 + 50 * 3)), 'The header declares 18,808 facets but the file holds 3 (234 bytes; 940,484 needed)');
    assert.match(await reason('x.stl', new Uint8Array(20)), /too short for a binary STL \(20 bytes/);
    assert.equal(await reason('n.stl', new Uint8Array(84)), 'The binary STL has no triangles');
  });

  it('needs an ASCII STL to end in endsolid, and an OBJ to have vertices and faces', async () => {
    assert.match(await reason('a.stl', read('stl', 'Moon-ascii.stl').subarray(0, 3000)), /no "endsolid"/);
    assert.match(await reason('v.obj', Buffer.from('v 1 2 3\nv 1 2 4\n')), /no face/);
    assert.match(await reason('f.obj', Buffer.from('# only a comment\n')), /no vertex/);
  });

  it('needs a 3MF to be a whole ZIP holding a .model part', async () => {
    const box = read('3mf', 'box.3mf');
    assert.match(await reason('z.3mf', box.subarray(0, 400)), /ZIP directory is missing/);
    assert.match(await reason('n.3mf', Buffer.from('hello, a note\n')), /not a ZIP/);
    assert.match(await reason('p.3mf', zipSync({ '3D/notes.txt': strToU8('no model here') })), /no 3D model part/);
    assert.equal((await check('q.3mf', zipSync({ '3D/3dmodel.model': strToU8('<model/>') }))).ok, true);
  });

  it('says which format the content is when the name says another', async () => {
    assert.equal(await reason('cow.stl', read('obj', 'cow.obj')), 'The file is named .stl but its content is OBJ');
    assert.equal(await reason('moon.obj', read('stl', 'Moon-binary.stl')), 'The file is named .obj but its content is STL');
    assert.equal(await reason('box.stl', read('3mf', 'box.3mf')), 'The file is named .stl but its content is 3MF');
  });

  it('names a file of another kind rather than reading it as a broken model', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200)]);
    assert.match(await reason('photo.stl', png), /^This is a PNG image, not an STL model\./);
    assert.match(await reason('part.obj', Buffer.from('ISO-10303-21;\nHEADER;\n')), /^This is a STEP CAD file, not an OBJ model\./);
  });

  it('refuses an empty file and a name that is not a model file', async () => {
    assert.equal(await reason('e.stl', new Uint8Array()), 'The file is empty');
    assert.equal(await reason('notes.txt', Buffer.from('hi')), 'The file name must end in .stl, .obj or .3mf');
  });
});
