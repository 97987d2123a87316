import type { Handlers } from '../dispatch.ts';
import type { Settings } from '../../contract/schemas/preferences.ts';
import type { Preferences } from '../storage/preferences.ts';

type SettingsHandlers = Pick<Handlers, 'settings:get' | 'settings:update'>;

/** The user's settings; `applied` puts the ones that act at once (Work offline) into effect. */
export function settingsHandlers(prefs: Preferences, applied: (settings: Settings) => void): SettingsHandlers {
  return {
    'settings:get': () => prefs.settings(),
    'settings:update': (patch) => {
      const next = prefs.updateSettings(patch);
      applied(next);
      return next;
    },
  };
}
