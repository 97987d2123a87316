import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signOutWarning } from '../../renderer/lib/sign-out-words.ts';

const email = 'shop@example.com';

test('nothing waiting: no question', () => {
  assert.equal(signOutWarning({ orders: 0, projects: 0, shared: false }, 0, email), null);
});

test('orders waiting in the open project only', () => {
  assert.equal(
    signOutWarning({ orders: 2, projects: 1, shared: false }, 2, email),
    '2 orders wait in the outbox. They stay on this computer and are sent when shop@example.com signs in again, never under another account.',
  );
});

test('orders waiting only in other projects name them, one or several', () => {
  assert.match(signOutWarning({ orders: 1, projects: 1, shared: false }, 0, email) ?? '', /^1 order waits in the outbox of another project\. It stays on this computer and is sent/);
  assert.match(signOutWarning({ orders: 5, projects: 3, shared: false }, 0, email) ?? '', /^5 orders wait in the outbox of 3 other projects\./);
});

test('orders waiting here and elsewhere say how many are elsewhere', () => {
  assert.match(signOutWarning({ orders: 1_200, projects: 2, shared: false }, 200, email) ?? '', /^1,200 orders wait in the outbox, 1,000 of them in another project\./);
  assert.match(signOutWarning({ orders: 4, projects: 3, shared: false }, 1, email) ?? '', /^4 orders wait in the outbox, 3 of them in 2 other projects\./);
});

test('in a team store, the shop’s workstations signed in as the account send them', () => {
  assert.match(signOutWarning({ orders: 1, projects: 1, shared: true }, 1, email) ?? '', /It stays in the team’s store and is sent by whichever of the shop’s workstations is signed in as shop@example\.com, never under another account\.$/);
});

test('a count of this project above the account’s (lists not yet caught up) never says a negative', () => {
  assert.match(signOutWarning({ orders: 1, projects: 1, shared: false }, 3, email) ?? '', /^1 order waits in the outbox\./);
});
