// The host reads for the page only files the user handed over: picked, dropped, opened, or in such a folder.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { PathGrants } from '../../electron/services/path-grants.ts';

test('a handed-over file or folder is allowed, and what lies inside the folder; nothing else', () => {
  const grants = new PathGrants();
  grants.grant(['/home/me/models/part.stl', '/home/me/prints', '']);
  assert.equal(grants.allows('/home/me/models/part.stl'), true);
  assert.equal(grants.allows('/home/me/prints/a/b/bracket.3mf'), true);
  assert.equal(grants.allows('/home/me/models/other.stl'), false, 'a sibling of a granted file');
  assert.equal(grants.allows('/home/me/models'), false, 'the folder of a granted file');
  assert.equal(grants.allows('/home/me/prints/../.ssh/id_ed25519'), false, 'climbing out of a granted folder');
  assert.equal(grants.allows('/home/me/printsX/part.stl'), false, 'a folder whose name only begins the same');
  assert.equal(grants.allows('/'), false, 'the empty grant is no grant of the working folder');
  assert.equal(grants.allows('relative.stl'), false);
});

test('a refused path is named without saying whether it exists', () => {
  const grants = new PathGrants();
  const messages = [import.meta.filename, '/no/such/file.ts'].map((path) => {
    try {
      grants.check([path]);
      return 'allowed';
    } catch (error) {
      return (error as Error).message.replace(/given \S+:/, 'given NAME:');
    }
  });
  assert.equal(messages[0], messages[1]);
  assert.match(messages[0], /^PrintDesk was not given NAME: choose it with a file dialog/);
});

test('a link inside a handed-over folder does not hand over what it points to', () => {
  const root = mkdtempSync(join(tmpdir(), 'grants-'));
  try {
    mkdirSync(join(root, 'prints'));
    mkdirSync(join(root, 'private'));
    writeFileSync(join(root, 'private', 'key'), 'secret');
    writeFileSync(join(root, 'prints', 'part.stl'), 'solid');
    symlinkSync(join(root, 'private'), join(root, 'prints', 'elsewhere'));
    const grants = new PathGrants();
    grants.grant([join(root, 'prints')]);
    assert.equal(grants.allows(join(root, 'prints', 'part.stl')), true);
    assert.equal(grants.allows(join(root, 'prints', 'elsewhere', 'key')), false);
    assert.equal(grants.allows(join(root, 'prints', 'part.stl'), true), false, 'exact: the folder is not the file');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
