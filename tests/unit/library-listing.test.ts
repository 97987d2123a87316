import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { formatMoment } from '../../renderer/lib/format.ts';
import { coalesced } from '../../common/coalesce.ts';
import { appendNew } from '../../renderer/lib/listing.ts';

const m = (modelId: string) => ({ modelId });

test('a next page shifted by a model added meanwhile lists nobody twice and keeps the order', () => {
  assert.deepEqual(appendNew([m('a'), m('b')], [m('b'), m('c'), m('c'), m('d')]).map((x) => x.modelId), ['a', 'b', 'c', 'd']);
  assert.deepEqual(appendNew([], [m('a')]).map((x) => x.modelId), ['a']);
});

test('when a listing was last seen reads as a time today, and with its day otherwise', () => {
  const now = new Date(2026, 10, 24, 15, 0);
  assert.match(formatMoment(new Date(2026, 10, 24, 9, 5).toISOString(), now), /^today at \S*9.05/);
  assert.doesNotMatch(formatMoment(new Date(2026, 10, 20, 9, 5).toISOString(), now), /today|2026/);
  assert.match(formatMoment(new Date(2025, 10, 20, 9, 5).toISOString(), now), /2025/);
  assert.equal(formatMoment('not a date', now), 'not a date');
});

/** A coalesced trigger over mocked timers, and how often it ran. */
function counted(t: TestContext, gapMs: number) {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const counter = { runs: 0 };
  return { changed: coalesced(() => counter.runs++, gapMs, Date.now), counter };
}

test('changes in a burst list the project at once, then at most once a gap, and once after the last', (t) => {
  const { changed, counter } = counted(t, 2_000);
  changed();
  t.mock.timers.tick(0);
  assert.equal(counter.runs, 1, 'the first change is shown at once');
  for (let ms = 0; ms < 5_000; ms += 100) {
    changed();
    t.mock.timers.tick(100);
  }
  assert.equal(counter.runs, 3, 'fifty changes in five seconds: two more listings, two seconds apart');
  t.mock.timers.tick(2_000);
  assert.equal(counter.runs, 4, 'the last change is listed too');
  t.mock.timers.tick(10_000);
  assert.equal(counter.runs, 4);
});

test('a burst cancelled (its owner stops) runs nothing more, and a trigger after it runs again', (t) => {
  const { changed, counter } = counted(t, 200);
  changed();
  t.mock.timers.tick(0);
  changed();
  changed.cancel();
  t.mock.timers.tick(1_000);
  assert.equal(counter.runs, 1, 'the run waiting was dropped');
  changed();
  t.mock.timers.tick(0);
  assert.equal(counter.runs, 2);
});
