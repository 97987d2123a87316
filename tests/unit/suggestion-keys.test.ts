// The keys of a search box's suggestions, shared by the country and model pickers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closeAfterBlur, suggestionKey } from '../../renderer/lib/suggestion-keys.ts';

function press(key: string) {
  let prevented = false;
  return { event: { key, preventDefault: () => (prevented = true) } as unknown as KeyboardEvent, prevented: () => prevented };
}

test('arrows move within the list, Enter takes the active one, Escape closes, other keys are the box’s', () => {
  const taken: number[] = [];
  let closed = false;
  const list = { open: true, active: 1, count: 3, take: (i: number) => taken.push(i), close: () => (closed = true) };
  assert.equal(suggestionKey(press('ArrowDown').event, list), 2);
  assert.equal(suggestionKey(press('ArrowDown').event, { ...list, active: 2 }), 2, 'not past the last');
  assert.equal(suggestionKey(press('ArrowUp').event, { ...list, active: 0 }), 0, 'not before the first');
  const enter = press('Enter');
  assert.equal(suggestionKey(enter.event, list), 1);
  assert.deepEqual(taken, [1]);
  assert.ok(enter.prevented(), 'Enter does not submit the form around the box');
  suggestionKey(press('Escape').event, list);
  assert.ok(closed);
  const letter = press('a');
  assert.equal(suggestionKey(letter.event, list), null);
  assert.equal(letter.prevented(), false);
  // A closed or empty list takes nothing on Enter.
  suggestionKey(press('Enter').event, { ...list, open: false });
  suggestionKey(press('Enter').event, { ...list, count: 0, active: 0 });
  assert.deepEqual(taken, [1]);
});

test('the list closes a moment after its box loses the focus, but not when the box has it again by then', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const box = {}, cell = {};
  const page = { activeElement: cell as unknown, focused: true, hasFocus: () => page.focused };
  const global = globalThis as unknown as { document?: unknown };
  const before = global.document;
  global.document = page;
  t.after(() => (global.document = before));
  let closed = 0;
  const blurred = { currentTarget: box } as unknown as FocusEvent;
  closeAfterBlur(blurred, () => closed++);
  t.mock.timers.tick(149);
  assert.equal(closed, 0, 'a click on a suggestion lands first');
  t.mock.timers.tick(1);
  assert.equal(closed, 1);
  // The focus goes to a cell and comes back to the box within the moment: the list stays for the typing.
  closeAfterBlur(blurred, () => closed++);
  page.activeElement = box;
  t.mock.timers.tick(150);
  assert.equal(closed, 1);
  // The window left for another app: the box is still the page's active element, and the list closes.
  closeAfterBlur(blurred, () => closed++);
  page.focused = false;
  t.mock.timers.tick(150);
  assert.equal(closed, 2);
});
