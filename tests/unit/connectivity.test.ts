// Online or offline as the service's answers say; after stop, a late answer changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createConnectivity } from '../../electron/services/session/connectivity.ts';

test('a probe that answers after stop does not report the service back (the host may have closed its database)', async () => {
  const changes: boolean[] = [];
  let answer: (ok: boolean) => void = () => undefined;
  const connectivity = createConnectivity({ probe: () => new Promise((resolve) => (answer = resolve)), onChange: ({ online }) => changes.push(online), intervalMs: 5 });
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
  const connectivity = createConnectivity({ probe: () => new Promise((resolve) => answers.push(resolve)), onChange: ({ online }) => changes.push(online), intervalMs: 60_000 });
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

test('Work offline holds the app offline without probing, and letting go asks the service before it is online again', async () => {
  const changes: string[] = [];
  let probes = 0;
  let up = false;
  const connectivity = createConnectivity({
    probe: async () => (probes++, up),
    onChange: (state) => changes.push(state.online ? 'online' : state.reason ?? '?'),
    whyUnreachable: () => 'sandbox-stopped',
    intervalMs: 5,
  });
  connectivity.hold(true);
  assert.deepEqual(connectivity.state(), { online: false, reason: 'working-offline' });
  // What a call still on its way learns is not listened to while held, and no probe runs.
  connectivity.report(true);
  connectivity.report(false);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(probes, 0);
  // Let go while the service is away: offline for the reason it is away.
  connectivity.hold(false);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(connectivity.state(), { online: false, reason: 'sandbox-stopped' });
  up = true;
  while (connectivity.state().online === false) await new Promise((resolve) => setTimeout(resolve, 5));
  connectivity.stop();
  assert.deepEqual(changes, ['working-offline', 'sandbox-stopped', 'online']);
});
