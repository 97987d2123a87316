import type { AppError } from '../../../electron/contract/channels.ts';
import { DEFAULT_SETTINGS } from '../../../common/preferences.ts';
import type { Settings, SettingsPatch } from '../../../electron/contract/schemas/preferences.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';
import { applyLook, lookOf, onSystemLookChange, type Look } from '../theme.ts';

/** The user's settings (Settings view), and the look they give the page. */
class PreferencesStore {
  settings = $state<Settings>({ ...DEFAULT_SETTINGS });
  /** light or dark as shown now: the theme chosen, or the system's for "system" */
  look = $state<Look>('light');
  error = $state<AppError | null>(null);

  constructor() {
    onSystemLookChange(() => this.show());
  }

  load = async () => {
    try {
      this.settings = unwrap(await printdesk.settings.get());
    } catch (error) {
      // The defaults stand: a page that cannot read its settings still works.
      this.error = asAppError(error);
    }
    this.show();
  };

  /** Saves a change; the page shows it at once and goes back if the host refuses it. */
  update = async (patch: SettingsPatch) => {
    const before = this.settings;
    this.settings = { ...before, ...patch };
    this.show();
    try {
      this.settings = unwrap(await printdesk.settings.update(patch));
      this.error = null;
    } catch (error) {
      this.settings = before;
      this.error = asAppError(error);
    }
    this.show();
  };

  private show() {
    this.look = lookOf(this.settings.theme);
    applyLook(this.look);
  }
}

export const preferences = new PreferencesStore();
