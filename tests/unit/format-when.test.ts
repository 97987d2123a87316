// When a queued order goes again, in the words the app uses for times elsewhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatWhen } from '../../renderer/lib/format.ts';

test('soon is "in under a minute", later today a time without seconds, another day with its date', () => {
  const now = new Date(2026, 10, 24, 19, 0, 0);
  assert.equal(formatWhen(new Date(2026, 10, 24, 19, 0, 40).toISOString(), now), 'in under a minute');
  assert.match(formatWhen(new Date(2026, 10, 24, 19, 29, 17).toISOString(), now), /^at 7:29\sPM$/);
  assert.match(formatWhen(new Date(2026, 10, 25, 9, 0, 0).toISOString(), now), /^Nov 25 at 9:00\sAM$/);
  assert.equal(formatWhen('soon', now), 'soon');
});
