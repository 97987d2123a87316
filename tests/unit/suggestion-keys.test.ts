// The keys of a search box's suggestions, shared by the country and model pickers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { suggestionKey } from '../../renderer/lib/suggestion-keys.ts';

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
