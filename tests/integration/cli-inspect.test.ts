// `printdesk inspect` as a user runs it: the real launcher in a child process, on corpus files.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { CUBE_OBJECT, cubeMesh, modelXml, package3mf } from '../threemf-fixtures.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const CORPUS = join(ROOT, '..', 'shared', 'corpus');

async function printdesk(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(NODE, [join(ROOT, 'bin', 'printdesk.js'), ...args], { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

test('inspect prints the facts of good files and exits 0', async () => {
  const { code, stdout } = await printdesk('inspect', join(CORPUS, '3mf', 'box.3mf'), join(CORPUS, 'stl', 'rear_case-binary.stl'));
  assert.equal(code, 0);
  assert.match(stdout, /box\.3mf\n {2}format {7}a 3MF package\n {2}triangles {4}12\n {2}size {9}10\.0 × 20\.0 × 30\.0 mm along x, y, z/);
  assert.match(stdout, /\n2 files: 2 read\.\n$/);
  assert.match(stdout, /volume {7}6,000 mm³ \(6 cm³\)/);
  assert.match(stdout, /rear_case-binary\.stl[\s\S]*triangles {4}18,808[\s\S]*watertight {3}yes/);
});

test('inspect --json gives one report per file; a broken file makes the exit code 1', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'printdesk-cli-'));
  try {
    const broken = join(dir, 'broken.stl');
    const bytes = new Uint8Array(84 + 50 * 3);
    new DataView(bytes.buffer).setUint32(80, 5, true);
    writeFileSync(broken, bytes);
    const { code, stdout } = await printdesk('inspect', '--json', join(CORPUS, 'obj', 'teapot.obj'), broken, join(dir, 'missing.obj'));
    assert.equal(code, 1);
    const reports = JSON.parse(stdout);
    assert.equal(reports.length, 3);
    assert.equal(reports[0].ok, true);
    assert.equal(reports[0].format, 'obj');
    assert.equal(reports[0].facts.triangles, 6320);
    assert.equal(reports[0].facts.watertight, false);
    // Where the problem is travels as data too: the facet count's byte offset.
    assert.deepEqual(reports[1], { file: broken, ok: false, error: { code: 'BAD_COUNT', message: 'The header declares 5 facets but the file holds 3 (234 bytes; 334 needed).', where: { offset: 80 } } });
    assert.equal(reports[2].error.code, 'FILE_UNREADABLE');
    // Read as a person would: a folder named, and the tally at the end.
    const plain = await printdesk('inspect', join(CORPUS, 'obj', 'teapot.obj'), dir);
    assert.equal(plain.code, 1);
    assert.match(plain.stderr, /it is a folder; name the model files in it/);
    assert.match(plain.stdout, /2 files: 1 read, 1 could not be read\./);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('usage errors exit 2 with help on stderr', async () => {
  for (const args of [[], ['inspect'], ['frobnicate'], ['inspect', '--bogus', 'x.stl']]) {
    const { code, stderr } = await printdesk(...args);
    assert.equal(code, 2, args.join(' '));
    assert.match(stderr, /Usage: printdesk/);
  }
  assert.match((await printdesk('inspect', '--jsn', 'x.stl')).stderr, /^printdesk inspect: unknown option --jsn\n/);
  const help = await printdesk('inspect', '--help');
  assert.equal(help.code, 0);
  assert.match(help.stdout, /printdesk inspect <file>\.\.\. \[--json\]/);
});

test('inspect says a 3MF that breaks the specification is not valid, with each rule and where, and still measures it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'printdesk-cli-'));
  try {
    const broken = join(dir, 'two-ids.3mf');
    // A colour group and the cube under one id, and an object of type "other" in the build.
    writeFileSync(broken, package3mf({ model: modelXml(`<m:colorgroup id="1"><m:color color="#FF0000"/></m:colorgroup>${CUBE_OBJECT}<object id="2" type="other">${cubeMesh()}</object>`, '<item objectid="1"/><item objectid="2"/>') }));
    const { code, stdout } = await printdesk('inspect', '--json', broken, join(CORPUS, '3mf', 'box.3mf'), join(CORPUS, 'stl', 'Cube-binary.stl'));
    assert.equal(code, 0, 'the files were read');
    const [report, box, stl] = JSON.parse(stdout);
    assert.equal(report.ok, true);
    assert.equal(report.valid, false);
    assert.equal(report.facts.triangles, 24, 'still read and measured');
    assert.deepEqual(report.conformance.violations.map((v: { rule: string; where: object }) => [v.rule, v.where]), [
      ['core.resource-id-unique', { part: '3D/3dmodel.model', element: 'object', id: 1, line: 4 }],
      ['core.build-other', { part: '3D/3dmodel.model', element: 'object', id: 2 }],
    ]);
    assert.equal(report.conformance.errors, 2);
    assert.match(report.conformance.violations[0].statement, /Resource IDs MUST be unique/);
    assert.equal(box.valid, true);
    assert.deepEqual(box.conformance, { errors: 0, warnings: 0, violations: [] });
    assert.equal(stl.valid, true, 'STL has no specification to break');
    const plain = await printdesk('inspect', broken);
    assert.match(plain.stdout, /valid {8}no: breaks the 3MF specification \(2 errors\); the service may refuse it/);
    assert.match(plain.stdout, /breaks {7}3MF Core 3\.4\.2: Resource id 1 is used twice: by <m:colorgroup> \(line 4\) and by <object> \(3D\/3dmodel\.model, <object>, id 1, line 4\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
