// `printdesk inspect` as a user runs it: the real launcher in a child process, on corpus files.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

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
