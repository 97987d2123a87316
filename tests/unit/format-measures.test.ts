// Volumes and areas as the model detail shows them: the unit follows the size, and a small part keeps its
// significant digits instead of rounding to 0.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatArea, formatCubicInches, formatSize, formatVolume } from '../../renderer/lib/format.ts';
import { readableBytes, readableSize } from '../../common/readable-number.ts';

const en = (text: string) => text.replace(/\u00a0/g, ' ');

test('volumes: cm³ from 1 cm³ up with two decimals, mm³ below, three significant digits under 1 mm³', () => {
  assert.equal(en(formatVolume(113_694.1)), '113.69 cm³');
  assert.equal(en(formatVolume(1000)), '1 cm³');
  assert.equal(en(formatVolume(999.4)), '999.4 mm³');
  assert.equal(en(formatVolume(0.00213456)), '0.00213 mm³');
  assert.equal(en(formatVolume(0)), '0 mm³');
});

test('areas: cm² from 1 cm² up with one decimal, mm² below', () => {
  assert.equal(en(formatArea(18_949.44)), '189.5 cm²');
  assert.equal(en(formatArea(57.1)), '57.1 mm²');
  assert.equal(en(formatArea(0.0571234)), '0.0571 mm²');
});

test('sizes: two decimals under 10 mm, one above, and junk coordinates in a few significant digits', () => {
  assert.equal(formatSize([104, 104, 24]), '104.0 × 104.0 × 24.0 mm');
  assert.equal(formatSize([1.0000000150474662e30, 2.5e6, 0.5]), '1.00e+30 × 2.50e+6 × 0.50 mm');
  // A part drawn in metres keeps its digits; the app and `printdesk inspect` write a size the same way.
  assert.equal(formatSize([0.0016, 0.15, 0.12]), '0.0016 × 0.15 × 0.12 mm');
  assert.equal(readableSize([1.63, 0.35, 3], 'en-US'), '1.63 × 0.35 × 3.00 mm');
  assert.equal(en(formatVolume(1e33)), '1.00e+30 cm³');
  // A part drawn in metres, in inches: a short figure, not eight zeros.
  assert.equal(en(formatCubicInches(0.000724)), '4.42e-8 in³');
  assert.equal(en(formatVolume(0.00005)), '5.00e-5 mm³');
  assert.equal(en(formatVolume(0.0001)), '0.0001 mm³');
});

test('a volume and a surface side by side share one unit', async () => {
  const { measureUnit } = await import('../../renderer/lib/format.ts');
  const unit = measureUnit(612, 540);
  assert.equal(unit, 'mm');
  assert.equal(en(formatVolume(612, unit)), '612 mm³');
  assert.equal(en(formatArea(540, unit)), '540 mm²');
  assert.equal(en(formatArea(540, measureUnit(113_694, 540))), '5.4 cm²');
});

test('file sizes read in the unit that fits them, alike in the app and in the host\'s messages', () => {
  assert.equal(readableBytes(1000), '1000 B');
  assert.equal(readableBytes(49_137), '48 KB');
  assert.equal(readableBytes(5884), '5.7 KB');
  assert.equal(readableBytes(512 * 2 ** 20), '512 MB');
  assert.equal(readableBytes(3.5 * 2 ** 30), '3.5 GB');
});
