import assert from 'node:assert/strict';
import { test } from 'node:test';
import { numberPlaceholders } from '../../electron/services/storage/postgres-placeholders.ts';

test('each ? becomes $1, $2… in order', () => {
  assert.equal(numberPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?)'), 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)');
  assert.equal(numberPlaceholders('INSERT INTO t VALUES (?,?)'), 'INSERT INTO t VALUES ($1,$2)');
  assert.equal(numberPlaceholders('SELECT ?'), 'SELECT $1');
});

test('text without a placeholder comes back unchanged', () => {
  const text = 'SELECT 1';
  assert.equal(numberPlaceholders(text), text);
  assert.equal(numberPlaceholders(''), '');
});

test('a ? in a string, a quoted name or a comment is text, not a parameter', () => {
  assert.equal(numberPlaceholders("SELECT '?', ? FROM t"), "SELECT '?', $1 FROM t");
  assert.equal(numberPlaceholders("SELECT 'it''s ?', ?"), "SELECT 'it''s ?', $1");
  assert.equal(numberPlaceholders('SELECT "odd?name" FROM t WHERE x = ?'), 'SELECT "odd?name" FROM t WHERE x = $1');
  assert.equal(numberPlaceholders('SELECT "a""?" , ?'), 'SELECT "a""?" , $1');
  assert.equal(numberPlaceholders('SELECT ? -- why?\n, ?'), 'SELECT $1 -- why?\n, $2');
  assert.equal(numberPlaceholders('SELECT /* ? */ ?'), 'SELECT /* ? */ $1');
});

test("an E'…' string's backslash escapes its quote; a plain string's does not", () => {
  assert.equal(numberPlaceholders("SELECT E'\\'?', ?"), "SELECT E'\\'?', $1");
  assert.equal(numberPlaceholders("SELECT '\\', ?"), "SELECT '\\', $1");
  assert.equal(numberPlaceholders("SELECT date'2026-01-01', ?"), "SELECT date'2026-01-01', $1");
});

test('a dollar-quoted body keeps its ?; a $ inside a name opens nothing', () => {
  assert.equal(numberPlaceholders("DO $$ BEGIN RAISE NOTICE '?'; END $$; SELECT ?"), "DO $$ BEGIN RAISE NOTICE '?'; END $$; SELECT $1");
  assert.equal(numberPlaceholders('SELECT $body$ ? $$ ? $body$, ?'), 'SELECT $body$ ? $$ ? $body$, $1');
  assert.equal(numberPlaceholders('SELECT x$y$ FROM t WHERE a = ? AND b = $y$?$y$'), 'SELECT x$y$ FROM t WHERE a = $1 AND b = $y$?$y$');
});

test('an unterminated quote leaves the rest as it is, for the server to refuse', () => {
  assert.equal(numberPlaceholders("SELECT ?, 'oops ?"), "SELECT $1, 'oops ?");
});
