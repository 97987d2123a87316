import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signOutWarning } from '../../renderer/lib/sign-out-words.ts';

const email = 'shop@example.com';
const waiting = (orders: number, projects: number, here: number, shared = false) => ({ orders, projects, here, shared });

test('nothing waiting: no question', () => {
  assert.equal(signOutWarning(waiting(0, 0, 0), true, email), null);
});

test('orders waiting in the open project only', () => {
  assert.equal(
    signOutWarning(waiting(2, 1, 2), true, email),
    '2 orders wait in the outbox. They stay on this computer and are sent when shop@example.com signs in again, never under another account.',
  );
});

test('orders waiting only in other projects name them, one or several', () => {
  assert.match(signOutWarning(waiting(1, 1, 0), true, email) ?? '', /^1 order waits in the outbox of another project\. It stays on this computer and is sent/);
  assert.match(signOutWarning(waiting(5, 3, 0), true, email) ?? '', /^5 orders wait in the outbox of 3 other projects\./);
});

test('orders waiting here and elsewhere say how many are elsewhere', () => {
  assert.match(signOutWarning(waiting(1_200, 2, 200), true, email) ?? '', /^1,200 orders wait in the outbox, 1,000 of them in another project\./);
  assert.match(signOutWarning(waiting(4, 3, 1), true, email) ?? '', /^4 orders wait in the outbox, 3 of them in 2 other projects\./);
});

test('with no project open, the projects are counted, not called "other"', () => {
  assert.match(signOutWarning(waiting(3, 2, 0), false, email) ?? '', /^3 orders wait in the outbox, in 2 projects\./);
  assert.match(signOutWarning(waiting(1, 1, 0), false, email) ?? '', /^1 order waits in the outbox\./);
});

test('in a team store, the shop’s workstations signed in as the account send them', () => {
  assert.match(signOutWarning(waiting(1, 1, 1, true), true, email) ?? '', /It stays in the team’s store and is sent by whichever of the shop’s workstations is signed in as shop@example\.com, never under another account\.$/);
});
