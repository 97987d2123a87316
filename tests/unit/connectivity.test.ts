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
