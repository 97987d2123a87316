import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isModelFile, MODEL_FILE_ACCEPT, modelExtension } from '../../common/model-files.ts';
import { canEdit, EDITABLE_STATES, hasShipping } from '../../common/orders/draft-rules.ts';
import { formatSeconds } from '../../common/batch/progress-words.ts';
import { readableDuration } from '../../common/readable-number.ts';
import { formatDuration } from '../../renderer/lib/format.ts';

test('an order can be edited as a draft, rejected or needing attention, unless its answer was lost', () => {
  assert.deepEqual([...EDITABLE_STATES], ['draft', 'rejected', 'needs-attention']);
  for (const state of EDITABLE_STATES) assert.equal(canEdit({ state, unanswered: false }), true, state);
  assert.equal(canEdit({ state: 'needs-attention', unanswered: true }), false);
  for (const state of ['queued', 'sending', 'placed']) assert.equal(canEdit({ state, unanswered: false }), false, state);
});

test('an order ships with a method chosen, or a rule standing in for one', () => {
  const method = { shippingMethodId: 'm' };
  const rule = { choice: { kind: 'cheapest' }, ceiling: null };
  assert.equal(hasShipping({ shippingMethod: method, shippingRule: null }), true);
  assert.equal(hasShipping({ shippingMethod: null, shippingRule: rule }), true);
  assert.equal(hasShipping({ shippingMethod: null, shippingRule: null }), false);
  // Drafts saved before offline ordering have no rule field at all.
  assert.equal(hasShipping({ shippingMethod: null }), false);
});

test('model files are told by their extension, in any case, on names and paths alike', () => {
  assert.equal(modelExtension('Bracket.STL'), 'stl');
  assert.equal(modelExtension('/home/ada/parts/gear.3mf'), '3mf');
  assert.equal(modelExtension('C:\\parts\\cube.Obj'), 'obj');
  assert.equal(modelExtension('notes.txt'), undefined);
  assert.equal(modelExtension('stl'), undefined);
  assert.equal(modelExtension('part.stl.zip'), undefined);
  assert.equal(isModelFile('/dir.stl/readme'), false);
  assert.equal(MODEL_FILE_ACCEPT, '.stl,.obj,.3mf');
});

test('a time left reads the same in the app and the CLI', () => {
  assert.equal(readableDuration(4.2), '5 s');
  assert.equal(readableDuration(125), '2 min 5 s');
  assert.equal(readableDuration(7_260), '2 h 1 min');
  assert.equal(formatDuration(125), readableDuration(125));
  assert.equal(formatDuration(null), '—');
  assert.equal(formatDuration(Infinity), '—');
  assert.equal(formatSeconds(125), readableDuration(125));
  // A batch's time left is only said while orders are left: never "0 s".
  assert.equal(formatSeconds(0), '1 s');
});
