import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickRow, emptySelection, keepShown, moveFocus, selectAll } from '../../renderer/lib/selection.ts';
import { rowWindow, scrollToRow } from '../../renderer/lib/virtual-rows.ts';

const rows = ['a', 'b', 'c', 'd', 'e', 'f'];
const ids = (selection: { ids: ReadonlySet<string> }) => [...selection.ids].sort();

test('a click selects one row, Ctrl/⌘-click adds or removes one, Shift-click takes the range from the last click', () => {
  let selection = clickRow(emptySelection(), rows, 'b');
  assert.deepEqual(ids(selection), ['b']);
  selection = clickRow(selection, rows, 'e', { extend: true });
  assert.deepEqual(ids(selection), ['b', 'c', 'd', 'e']);
  // Shift-click again from the same anchor: the range replaces the last one, upwards too.
  selection = clickRow(selection, rows, 'a', { extend: true });
  assert.deepEqual(ids(selection), ['a', 'b']);
  selection = clickRow(selection, rows, 'f', { toggle: true });
  assert.deepEqual(ids(selection), ['a', 'b', 'f']);
  selection = clickRow(selection, rows, 'a', { toggle: true });
  assert.deepEqual(ids(selection), ['b', 'f']);
  assert.equal(selection.anchor, 'a', 'a Ctrl-click moves the anchor');
  // Ctrl+Shift adds a range to what is selected.
  selection = clickRow(selection, rows, 'c', { toggle: true, extend: true });
  assert.deepEqual(ids(selection), ['a', 'b', 'c', 'f']);
  selection = clickRow(selection, rows, 'd');
  assert.deepEqual(ids(selection), ['d']);
});

test('the arrows move the selection, Shift extends it from the anchor, the ends stop it; Ctrl+A takes all', () => {
  let selection = moveFocus(emptySelection(), rows, 1);
  assert.equal(selection.focus, 'a', 'the first move from nothing lands on the first row');
  selection = moveFocus(selection, rows, 2);
  assert.deepEqual(ids(selection), ['c']);
  selection = moveFocus(selection, rows, 2, true);
  assert.deepEqual(ids(selection), ['c', 'd', 'e']);
  selection = moveFocus(selection, rows, -3, true);
  assert.deepEqual(ids(selection), ['b', 'c']);
  selection = moveFocus(selection, rows, 100);
  assert.deepEqual([selection.focus, ...ids(selection)], ['f', 'f']);
  selection = moveFocus(selection, rows, -100);
  assert.equal(selection.focus, 'a');
  assert.deepEqual(ids(selectAll(selection, rows)), rows);
});

test('rows no longer shown (filtered out, deleted) leave the selection; an unchanged selection stays the same object', () => {
  const selection = clickRow(clickRow(emptySelection(), rows, 'b'), rows, 'd', { extend: true });
  const kept = keepShown(selection, new Set(['a', 'c', 'd']));
  assert.deepEqual(ids(kept), ['c', 'd']);
  assert.equal(kept.anchor, null);
  assert.equal(kept.focus, 'd');
  assert.equal(keepShown(selection, new Set(rows)), selection);
});

test('only the rows in view and a few either side are drawn, and a row moved to is scrolled into view', () => {
  // 10,000 rows of 36 px in 500 px: about 15 in view.
  assert.deepEqual(rowWindow(0, 500, 36, 10_000, 8), { start: 0, end: 23 });
  const middle = rowWindow(36 * 5000, 500, 36, 10_000, 8);
  assert.deepEqual(middle, { start: 4992, end: 5023 });
  assert.deepEqual(rowWindow(36 * 10_000, 500, 36, 10_000, 8), { start: 9992, end: 10_000 });
  assert.deepEqual(rowWindow(0, 500, 36, 3), { start: 0, end: 3 });
  assert.deepEqual(rowWindow(0, 500, 36, 0), { start: 0, end: 0 });

  assert.equal(scrollToRow(2, 0, 360, 36), 0, 'in view: no movement');
  assert.equal(scrollToRow(20, 0, 360, 36), 21 * 36 - 360, 'below: to the bottom edge');
  assert.equal(scrollToRow(3, 36 * 10, 360, 36), 3 * 36, 'above: to the top edge');
});
