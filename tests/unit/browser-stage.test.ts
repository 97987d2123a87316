// Browser mode's staged copies of dropped files: bounded in size, nothing left of a refused one, and
// deleted once no upload item needs them.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { pruneStaged, StagedTooLarge, stagedName, stageUpload } from '../../electron/browser/stage.ts';

function request(bytes: number, declared?: number): IncomingMessage {
  const body = Readable.from([Buffer.alloc(bytes / 2, 1), Buffer.alloc(bytes - bytes / 2, 2)]);
  return Object.assign(body, { headers: declared === undefined ? {} : { 'content-length': String(declared) } }) as unknown as IncomingMessage;
}

test('a file is copied into a folder of its own, readable by this user only, under a harmless name', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stage-'));
  const path = await stageUpload(request(1000), dir, '../../etc/passwd\u0000.stl');
  assert.ok(path.startsWith(dir));
  assert.equal((await stat(path)).size, 1000);
  assert.equal((await stat(path)).mode & 0o777, 0o600);
  assert.match(path, /passwd_\.stl$/);
});

test("a staged copy keeps the user's name, less what a file system refuses", () => {
  assert.equal(stagedName("Knob (matte, 20% infill) — Ana's #2 & spare!.stl"), "Knob (matte, 20% infill) — Ana's #2 & spare!.stl");
  assert.equal(stagedName('C:\\Users\\ana\\part.stl'), 'part.stl');
  assert.equal(stagedName('what?<now>|"x":*.stl'), 'what__now___x___.stl');
  assert.equal(stagedName(`${'long '.repeat(60)}.3mf`), `${'long '.repeat(60).slice(0, 196)}.3mf`);
  assert.equal(stagedName('tab\there.stl. . '), 'tab_here.stl');
  assert.equal(stagedName('..'), 'model');
  assert.equal(stagedName(''), 'model');
});

test('a name loses the invisible characters that could make it show as something else', () => {
  // Right-to-left override: shown as "invoiceexe.stl", it is a .exe by its bytes; after, what it shows is what it is.
  assert.equal(stagedName('invoice\u202Elts.exe'), 'invoicelts.exe');
  for (const control of ['\u061C', '\u200E', '\u200F', '\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069']) {
    assert.equal(stagedName(`gear${control}.stl`), 'gear.stl', `U+${control.codePointAt(0)!.toString(16)}`);
  }
  // Zero-width space, word joiner, byte order mark, soft hyphen, a tag character: two names that look alike.
  assert.equal(stagedName('\uFEFFbr\u200Back\u2060et\u00AD.st\u{E0041}l'), 'bracket.stl');
  assert.equal(stagedName('line\u2028break.stl'), 'line_break.stl');
  // Joiners that join stay: a Persian word, an emoji sequence; a lone one goes.
  assert.equal(stagedName('می\u200Cخواهم.stl'), 'می\u200Cخواهم.stl');
  assert.equal(stagedName('👩\u200D🔧 bracket.stl'), '👩\u200D🔧 bracket.stl');
  assert.equal(stagedName('👍🏽\u200D.stl'), '👍🏽.stl');
  assert.equal(stagedName('part\u200D.stl'), 'part.stl');
  assert.equal(stagedName('\u202E'), 'model');
});

test('a file over the limit, declared or streamed, is refused and leaves nothing behind', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stage-'));
  await assert.rejects(stageUpload(request(10, 5_000), dir, 'declared.stl', 4_000), StagedTooLarge);
  await assert.rejects(stageUpload(request(5_000), dir, 'streamed.stl', 4_000), StagedTooLarge);
  assert.deepEqual(await readdir(dir).catch(() => []), []);
});

test('pruning deletes the copies no item names, once they are an hour old', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'stage-'));
  const copy = async (folder: string, hoursOld: number) => {
    await mkdir(join(dir, folder));
    await writeFile(join(dir, folder, 'm.stl'), 'x');
    const then = new Date(Date.now() - hoursOld * 3_600_000);
    await utimes(join(dir, folder), then, then);
    return join(dir, folder, 'm.stl');
  };
  const queued = await copy('queued', 5);
  await copy('cleared', 5);
  await copy('just-dropped', 0);
  assert.equal(await pruneStaged(dir, new Set([queued])), 1);
  assert.deepEqual((await readdir(dir)).sort(), ['just-dropped', 'queued']);
  assert.equal(await pruneStaged(join(dir, 'nowhere'), new Set()), 0, 'no staging folder yet is not an error');
});
