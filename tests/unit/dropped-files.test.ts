// What a drop or a pick leaves out is named, a long list cut short.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modelFiles, someNames } from '../../renderer/lib/dropped-files.ts';

test('models are kept, other files named', () => {
  const picked = ['part.STL', 'notes.txt', 'box.3mf', 'photo.png'].map((name) => new File(['x'], name));
  const { files, skipped } = modelFiles(picked);
  assert.deepEqual(files.map((f) => f.name), ['part.STL', 'box.3mf']);
  assert.deepEqual(skipped, ['notes.txt', 'photo.png']);
});

test('names read as a sentence: one, a few, then "and N more"', () => {
  assert.equal(someNames(['a.txt']), 'a.txt');
  assert.equal(someNames(['a.txt', 'b.png']), 'a.txt and b.png');
  assert.equal(someNames(['a', 'b', 'c']), 'a, b and c');
  assert.equal(someNames(['a', 'b', 'c', 'd', 'e']), 'a, b, c and 2 more');
});
