// The text parsers' number reader against JavaScript's own Number() on seeded random decimal text: every
// value must land on the same float32 (what positions are stored as) and the reader must stop where the
// number ends. Covers short numbers (the fast path), long ones (over 15 digits), leading zeros, signs,
// exponents, and fractions without an integer part.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { grouped } from '../../common/models/errors.ts';
import { cursor, readNumber } from '../../common/models/numbers.ts';

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

test('numbers read from bytes land on the same float32 as Number() does, and end where the text ends', () => {
  const random = seeded(7);
  const pick = (n: number) => Math.floor(random() * n);
  const samples = [
    () => (random() * 10 ** pick(12)).toFixed(pick(10)),
    () => random().toExponential(pick(16)).replace('e', pick(2) ? 'E' : 'e'),
    () => `0.${'0'.repeat(pick(20))}${pick(1e9)}`,
    () => `${pick(1e9)}${pick(1e9)}.${pick(1e9)}`,
    () => `.${pick(1e6)}`,
    () => String(random() * 10 ** (pick(40) - 20)),
  ];
  const encoder = new TextEncoder();
  for (let k = 0; k < 50_000; k++) {
    const text = ['', '-', '+'][pick(3)] + samples[pick(samples.length)]();
    const value = readNumber(encoder.encode(`${text} `), 0);
    assert.equal(Math.fround(value), Math.fround(Number(text)), text);
    assert.equal(cursor.end, text.length, text);
  }
  assert.ok(Number.isNaN(readNumber(encoder.encode('abc'), 0)));
  assert.ok(Number.isNaN(readNumber(encoder.encode('-.e5'), 0)));
  assert.equal(readNumber(encoder.encode('1e'), 0), 1);
  assert.equal(cursor.end, 1, 'an "e" without digits is not part of the number');
});

test('a long number stops at a second dot, as a short one does', () => {
  const encoder = new TextEncoder();
  for (const text of ['1.5.5', '1234567890.1234567890.5', '.12345678901234567.5']) {
    readNumber(encoder.encode(text), 0);
    assert.equal(cursor.end, text.lastIndexOf('.'), text);
  }
});

test('counts in messages are grouped as en-US Intl groups them, whole numbers without loading Intl', () => {
  const format = new Intl.NumberFormat('en-US');
  for (const n of [0, 7, 999, 1000, -1000, 2333, 18_808, 1_999_396, -9_876_543_210, Number.MAX_SAFE_INTEGER, 1e21, 12_345.678, -1234.5]) {
    assert.equal(grouped(n), Math.abs(n) < 1000 ? String(n) : format.format(n), String(n));
  }
});
