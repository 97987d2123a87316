// Online or offline as the service's answers say; after stop, a late answer changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createConnectivity } from '../../electron/session/connectivity.ts';

test('a probe that answers after stop does not report the service back (the host may have closed its database)', async () => {
  const changes: boolean[] = [];
  let answer: (ok: boolean) => void = () => undefined;
  const connectivity = createConnectivity({ probe: () => new Promise((resolve) => (answer = resolve)), onChange: (online) => changes.push(online), intervalMs: 5 });
  connectivity.report(false);
  await new Promise((resolve) => setTimeout(resolve, 20));
  connectivity.stop();
  answer(true);
  await new Promise((resolve) => setTimeout(resolve, 10));
  connectivity.report(true);
  assert.deepEqual(changes, [false]);
  assert.equal(connectivity.online(), false);
});

test('a failure to be confirmed turns the app offline only when the probe fails too, and probes once for many', async () => {
  const changes: boolean[] = [];
  let answers: ((ok: boolean) => void)[] = [];
  const connectivity = createConnectivity({ probe: () => new Promise((resolve) => answers.push(resolve)), onChange: (online) => changes.push(online), intervalMs: 60_000 });
  // An upload's connection cut while the service answers everything else: still online.
  connectivity.report(false, true);
  connectivity.report(false, true);
  assert.equal(answers.length, 1, 'one probe for failures seen together');
  answers[0](true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(connectivity.online(), true);
  assert.deepEqual(changes, []);
  // The service gone: the probe fails as well, and the app says so.
  answers = [];
  connectivity.report(false, true);
  answers[0](false);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(connectivity.online(), false);
  assert.deepEqual(changes, [false]);
  connectivity.stop();
});
