import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryInSentence, countryOptions, needsState, searchCountries, toAlpha2 } from '../../common/orders/countries.ts';
import { fieldOfServiceMessage, recipientWarnings, validateModelLines, validatePackage, validateQuote, validateRecipient } from '../../common/orders/validation.ts';

const good = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  streetAddress: 'Keizersgracht 1',
  postal: '1015 CJ',
  city: 'Amsterdam',
  country: 'NL',
  countryState: '',
  phoneNumber: '020 123 4567',
  email: 'ada@example.com',
};

test('a complete Dutch recipient passes; the phone may be national or international', () => {
  assert.deepEqual(validateRecipient(good), {});
  assert.deepEqual(validateRecipient({ ...good, phoneNumber: '+31 20 123 4567' }), {});
  assert.deepEqual(validateRecipient({ ...good, phoneNumber: '' }), {});
  assert.deepEqual(validateRecipient({ ...good, country: 'nld' }), {});
});

test("each of the service's rules is checked with a message of its own", () => {
  const errors = validateRecipient({ ...good, firstName: ' ', email: 'a@b', phoneNumber: '12', country: 'XX' });
  assert.equal(errors.firstName, 'Required');
  assert.equal(errors.email, 'Not an email address');
  assert.match(errors.country, /not a known country/);
  assert.equal(errors.phoneNumber, 'Too short: the service takes 5 to 30 digits and signs after the +');
  // What is wrong is said: the letters of an extension, too few signs, or too many characters.
  assert.match(validateRecipient({ ...good, phoneNumber: '+31 20 123 4567 ext 12' }).phoneNumber, /^Only digits, spaces, a leading \+, and - \. \/ \( \): leave out extensions and letters$/);
  assert.match(validateRecipient({ ...good, phoneNumber: '+44 1' }).phoneNumber, /^Too short/);
  assert.equal(validateRecipient({ ...good, phoneNumber: '0'.repeat(31) }).phoneNumber, 'At most 30 characters');
  assert.deepEqual(validateRecipient({ ...good, phoneNumber: '+44 12' }), {}, 'five after the + are enough');
  assert.match(validateRecipient({ ...good, city: 'x'.repeat(101) }).city, /At most 100/);
  assert.match(validateRecipient({ ...good, city: 'Amster\tdam' }).city, /control characters/);
  // As loose as the service: a one-letter last part of the domain is an address to it.
  assert.deepEqual(validateRecipient({ ...good, email: 'a@b.c' }), {});
});

test("our own rules (a postal code's shape, a phone's length for the country, a state) only warn", () => {
  const nl = { ...good, postal: '12345', phoneNumber: '+31 20 12' };
  assert.deepEqual(validateRecipient(nl), {});
  assert.match(recipientWarnings(nl).postal, /postal code of the Netherlands/);
  assert.match(recipientWarnings(nl).phoneNumber, /Too short for a phone number of the Netherlands/);
  assert.deepEqual(recipientWarnings(good), {});
});

test('a state is wanted by carriers in some countries, never required: Spain and China go without one', () => {
  const us = { ...good, country: 'US', postal: '94105', phoneNumber: '+1 415 555 2671' };
  assert.deepEqual(validateRecipient(us), {});
  assert.match(recipientWarnings(us).countryState, /usually want a state/);
  assert.deepEqual(recipientWarnings({ ...us, countryState: 'CA' }), {});
  for (const [country, postal, phoneNumber] of [['ES', '28014', '+34 912 345 678'], ['CN', '200120', '+86 21 5888 8888']]) {
    const order = { ...good, country, postal, phoneNumber };
    assert.deepEqual(validateRecipient(order), {}, country);
    assert.deepEqual(Object.keys(recipientWarnings(order)), ['countryState'], country);
  }
  assert.equal(needsState('USA'), true);
  assert.equal(needsState('NL'), false);
});

test('the package rules of spec 4.1, the dimensions said plainly', () => {
  assert.deepEqual(validatePackage({ weight: 500, length: null, width: null, height: null }), {});
  assert.deepEqual(validatePackage({ weight: 500, length: 1, width: 2, height: 3 }), {});
  assert.match(validatePackage({ weight: 0, length: null, width: null, height: null }).weight, /greater than 0 grams/);
  assert.match(validatePackage({ weight: 5, length: 1, width: null, height: null }).dimensions, /all three/);
  assert.match(validatePackage({ weight: 5, length: 1, width: 0, height: 2 }).dimensions, /must each be more than 0 cm/);
  assert.match(validatePackage({ weight: 5, length: 1, width: null, height: 2 }).dimensions, /all three of length, width and height, or none/);
});

test('a quote needs a country and exactly one of models and package', () => {
  assert.equal(validateQuote({ country: '' }).country, 'Country is not set');
  assert.equal(validateQuote({ country: 'NL' }).models, 'Either models or package is required');
  assert.match(validateQuote({ country: 'NL', models: [], package: { weight: 1, length: null, width: null, height: null } }).models, /not both/);
  assert.match(validateQuote({ country: 'NLDX', models: [{ modelId: 'x', quantity: 1 }] }).country, /2- or 3-letter/);
  assert.equal(validateQuote({ country: 'NL', models: [{ modelId: '0f8fad5b-d9cb-469f-a165-70867728950e', quantity: 0 }] })['models.0.quantity'], 'Quantity: a whole number, at least 1');
});

test('service messages are placed beside the field they concern', () => {
  assert.equal(fieldOfServiceMessage('Country is not set'), 'country');
  assert.equal(fieldOfServiceMessage('Package weight is required and must be greater than 0 grams'), 'weight');
  assert.equal(fieldOfServiceMessage('Package length, width and height are required when dimensions are supplied and must be greater than 0 centimeters'), 'dimensions');
  assert.equal(fieldOfServiceMessage('Either models or package is required'), 'models');
  assert.equal(fieldOfServiceMessage('Request body is empty'), null);
});

test('countries come from the maintained ISO list and are searchable by name and code', () => {
  assert.ok(countryOptions().length >= 249);
  assert.equal(toAlpha2('deu'), 'DE');
  assert.equal(toAlpha2('ZZ'), null);
  assert.equal(searchCountries('NLD')[0].alpha2, 'NL');
  assert.equal(searchCountries('germ')[0].alpha2, 'DE');
  assert.ok(searchCountries('united').some((c) => c.alpha2 === 'GB'));
});

test('a phone number with an extension or letters is refused before the service would refuse it', () => {
  const us = { ...good, country: 'US', countryState: 'CA', postal: '94105', phoneNumber: '+1 415 555 2671 ext. 12' };
  assert.match(validateRecipient(us).phoneNumber, /leave out extensions/);
  assert.deepEqual(recipientWarnings({ ...us, phoneNumber: '+1 (415) 555-2671' }), {});
  assert.deepEqual(validateRecipient({ ...us, phoneNumber: '+1 (415) 555-2671' }), {});
});

test('a typed country is found by code, name or common alias, and the shorter of equal matches comes first', async () => {
  const { alpha2FromText } = await import('../../common/orders/countries.ts');
  assert.equal(alpha2FromText('germany'), 'DE');
  assert.equal(alpha2FromText(' UK '), 'GB');
  assert.equal(alpha2FromText('nld'), 'NL');
  assert.equal(alpha2FromText('Narnia'), null);
  assert.equal(searchCountries('uk')[0].alpha2, 'GB');
  assert.equal(searchCountries('united st')[0].alpha2, 'US');
});

test('typed numbers: a decimal comma is a point, blank is none, and text is NaN for the validation to name', async () => {
  const { typedNumber, validatePackage } = await import('../../common/orders/validation.ts');
  assert.equal(typedNumber('12,5'), 12.5);
  assert.equal(typedNumber(' 800 '), 800);
  assert.equal(typedNumber(''), null);
  assert.ok(Number.isNaN(typedNumber('800 g')));
  assert.ok(Number.isNaN(typedNumber('1e3')));
  assert.match(validatePackage({ weight: Number.NaN, length: null, width: null, height: null }).weight ?? '', /^Not a number/);
  assert.match(validatePackage({ weight: 500, length: 10, width: Number.NaN, height: 3 }).dimensions ?? '', /^Not a number/);
});

test('an order holds 1 to 100 different models, and the message says how many it has', () => {
  const line = (n: number) => ({ modelId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, quantity: 1 });
  assert.equal(validateModelLines([]).models, 'Add at least one model');
  assert.deepEqual(validateModelLines(Array.from({ length: 100 }, (_, n) => line(n))), {});
  assert.equal(validateModelLines(Array.from({ length: 101 }, (_, n) => line(n))).models, 'An order holds at most 100 different models; this one has 101');
});

test('a quantity above what one order takes is caught in the form, not by the service', () => {
  const line = (quantity: number) => validateQuote({ country: 'NL', models: [{ modelId: '0f8fad5b-d9cb-469f-a165-70867728950e', quantity }] })['models.0.quantity'];
  assert.equal(line(10_000), undefined);
  assert.equal(line(10_001), 'Quantity: at most 10,000 of one model in an order');
});

test('a country in a sentence is named as people name it, with "the" where English gives it one; an unknown code stays as given', () => {
  const said = ['ES', 'NL', 'USA', 'GB', 'KY', 'CZ', 'PH', 'AE', 'MD', 'MK', 'IM', 'BB', 'GM', 'CD', 'HK', 'CI', 'VG', 'XX'].map(countryInSentence);
  assert.deepEqual(said, [
    'Spain', 'the Netherlands', 'the United States', 'the United Kingdom', 'the Cayman Islands', 'Czechia', 'the Philippines',
    'the United Arab Emirates', 'Moldova', 'North Macedonia', 'the Isle of Man', 'Barbados', 'the Gambia', 'the Democratic Republic of the Congo',
    'Hong Kong', 'Côte d’Ivoire', 'the British Virgin Islands', 'XX',
  ]);
  // Written out: no "&", no "St.", no brackets; a territory is "the".
  assert.deepEqual(['KN', 'TT', 'LC', 'MM', 'CC', 'IO', 'GS', 'VC'].map(countryInSentence), [
    'Saint Kitts and Nevis', 'Trinidad and Tobago', 'Saint Lucia', 'Myanmar', 'the Cocos Islands', 'the British Indian Ocean Territory',
    'South Georgia and the South Sandwich Islands', 'Saint Vincent and the Grenadines',
  ]);
});
