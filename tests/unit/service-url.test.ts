import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkBaseUrl, isLoopbackHost } from '../../common/service-url.ts';

test('an https address ending in /v2 is accepted and normalised', () => {
  assert.deepEqual(checkBaseUrl(' https://print.example.com/api/v2/ '), { ok: true, baseUrl: 'https://print.example.com/api/v2' });
});

test('plain http is refused except on loopback', () => {
  assert.equal(checkBaseUrl('http://print.example.com/v2').ok, false);
  assert.equal(checkBaseUrl('http://127.0.0.1:8787/v2').ok, true);
  assert.equal(checkBaseUrl('http://localhost:8787/v2').ok, true);
  assert.equal(checkBaseUrl('http://[::1]:8787/v2').ok, true);
  assert.equal(checkBaseUrl('http://127.0.0.1.evil.com/v2').ok, false);
});

test('the version segment, scheme and shape are checked with a message for each', () => {
  for (const input of ['print.example.com/v2', 'ftp://x/v2', 'https://x/v1', 'https://u:p@x/v2', 'https://x/v2?a=1', 'https://x/v2#f']) {
    const result = checkBaseUrl(input);
    assert.equal(result.ok, false, input);
    assert.ok(!result.ok && result.message.length > 10);
  }
});

test('loopback means 127.0.0.0/8, localhost and ::1 only', () => {
  assert.ok(isLoopbackHost('127.1.2.3'));
  assert.ok(!isLoopbackHost('128.0.0.1'));
  assert.ok(!isLoopbackHost('127.0.0.256'));
  assert.ok(!isLoopbackHost('localhost.example.com'));
});
