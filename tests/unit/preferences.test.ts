// The settings a user sets once: kept, and read back even when the file was edited by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../common/preferences.ts';
import { createMemoryStore } from '../../electron/services/storage/memory-store.ts';
import { createPreferences } from '../../electron/services/storage/preferences.ts';

test('settings start at their defaults and keep what the user changed', () => {
  const prefs = createPreferences(createMemoryStore());
  assert.deepEqual(prefs.settings(), DEFAULT_SETTINGS);
  prefs.updateSettings({ theme: 'dark', defaultCountry: 'DE', defaultShipping: { kind: 'rule', rule: 'cheapest' } });
  prefs.updateSettings({ units: 'in' });
  assert.deepEqual(prefs.settings(), { ...DEFAULT_SETTINGS, theme: 'dark', units: 'in', defaultCountry: 'DE', defaultShipping: { kind: 'rule', rule: 'cheapest' } });
  assert.throws(() => prefs.updateSettings({ defaultCountry: 'Germany' }), /two-letter/);
});

test('a setting spoilt by hand falls back to its default and leaves the others as they were', () => {
  const prefs = createPreferences(createMemoryStore({ settings: { theme: 'purple', units: 'in', workOffline: 'yes' } }));
  assert.deepEqual(prefs.settings(), { ...DEFAULT_SETTINGS, units: 'in' });
  assert.deepEqual(createPreferences(createMemoryStore({ settings: 'junk' })).settings(), DEFAULT_SETTINGS);
});
