// The phone-length warning's quick answer (common/orders/phone-length.ts) against libphonenumber's own
// validatePhoneNumberLength: the same answer for every country, in every way numbers are written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getCountries, getCountryCallingCode, validatePhoneNumberLength } from 'libphonenumber-js';
import { phoneLength } from '../../common/orders/phone-length.ts';

test('the quick answer is libphonenumber’s, for 50,000 numbers of every country written every way', () => {
  let x = 20_261_125;
  const random = (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
  const countries = getCountries();
  const differing: string[] = [];
  for (let i = 0; i < 50_000; i++) {
    const country = countries[random(countries.length)];
    const digits = Array.from({ length: 3 + random(14) }, () => random(10)).join('');
    const written = [`+${getCountryCallingCode(country)} ${digits}`, `+${digits}`, `0${digits}`, digits, `(0${digits.slice(0, 3)}) ${digits.slice(3)}`][random(5)];
    if (phoneLength(written, country) !== validatePhoneNumberLength(written, country)) differing.push(`${country} ${written}`);
  }
  assert.deepEqual(differing, []);
});

test('numbers as shops write them', () => {
  assert.equal(phoneLength('+31 20 123 4567', 'NL'), undefined);
  assert.equal(phoneLength('020 123 4567', 'NL'), undefined);
  assert.equal(phoneLength('+1 617-555-0134', 'US'), undefined);
  assert.equal(phoneLength('+31 20 12', 'NL'), 'TOO_SHORT');
  assert.equal(phoneLength('+1 617-555-01345', 'US'), 'TOO_LONG');
  // Another country's number given with its code is that country's business, as libphonenumber says.
  assert.equal(phoneLength('+49 30 1234567', 'NL'), validatePhoneNumberLength('+49 30 1234567', 'NL'));
});
