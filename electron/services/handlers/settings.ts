import type { AppInfo, ServiceSetting } from '../../contract/channels.ts';
import { checkBaseUrl } from '../../../common/service-url.ts';
import { HostError } from '../api/errors.ts';
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

export interface ServiceChoiceDeps {
  prefs: Preferences;
  /** the base URL a setting points at (the current one without it) */
  baseUrlOf: (setting?: ServiceSetting) => string | null;
  signOut: () => Promise<unknown>;
  forgetProjects: () => void;
  info: () => AppInfo['service'];
}

/** The service chosen; another service signs the user out, as tokens belong to the service that issued them. */
export function serviceHandler(deps: ServiceChoiceDeps): Pick<Handlers, 'settings:setService'> {
  return {
    'settings:setService': async (setting) => {
      let next = setting;
      if (setting.kind === 'custom') {
        const checked = checkBaseUrl(setting.baseUrl);
        if (!checked.ok) throw new HostError('INVALID_INPUT', checked.message);
        next = { kind: 'custom', baseUrl: checked.baseUrl };
      }
      if (deps.baseUrlOf(next) !== deps.baseUrlOf()) {
        await deps.signOut();
        deps.forgetProjects();
      }
      deps.prefs.setService(next);
      return deps.info();
    },
  };
}
