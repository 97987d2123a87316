import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lowerCaseAccountKeys, normalAccountKey } from '../../electron/services/storage/account-keys.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';

test('an account key keeps its service as it is and its address in lower case', () => {
  assert.equal(normalAccountKey('https://Print.example/v2 Ada@Example.COM'), 'https://Print.example/v2 ada@example.com');
  assert.equal(normalAccountKey('embedded-sandbox demo@printdesk.test'), 'embedded-sandbox demo@printdesk.test');
});

test('rows under an address in other capitals become the account’s; a twin already there wins', () => {
  const db = openDatabase(':memory:');
  db.exec('CREATE TABLE recipients (account TEXT NOT NULL, name TEXT NOT NULL, city TEXT, PRIMARY KEY (account, name))');
  const put = db.prepare('INSERT INTO recipients (account, name, city) VALUES (?, ?, ?)');
  put.run('svc Ada@Example.com', 'Grace', 'Old town');
  put.run('svc Ada@Example.com', 'Alan', 'Berlin');
  put.run('svc ada@example.com', 'Grace', 'New town');
  put.run('svc bob@example.com', 'Bob', 'Porto');
  lowerCaseAccountKeys(db, ['recipients']);
  const rows = db.prepare('SELECT account, name, city FROM recipients ORDER BY account, name').all();
  assert.deepEqual(rows, [
    { account: 'svc ada@example.com', name: 'Alan', city: 'Berlin' },
    { account: 'svc ada@example.com', name: 'Grace', city: 'New town' },
    { account: 'svc bob@example.com', name: 'Bob', city: 'Porto' },
  ]);
});
