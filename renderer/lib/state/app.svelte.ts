import type { AppError, AppInfo, ServiceSetting } from '../../../electron/contract/channels.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';

class AppState {
  info = $state<AppInfo | null>(null);
  loadError = $state<AppError | null>(null);
  settingsOpen = $state(false);

  load = async () => {
    try {
      this.info = unwrap(await printdesk.app.info());
      this.loadError = null;
    } catch (error) {
      this.loadError = asAppError(error);
    }
  };

  /** Saves the service choice; the host signs out when the service changes. */
  setService = async (setting: ServiceSetting) => {
    const service = unwrap(await printdesk.settings.setService(setting));
    await this.load();
    return service;
  };

  dismissVaultNotice = async () => {
    const vault = unwrap(await printdesk.app.dismissVaultNotice());
    if (this.info) this.info = { ...this.info, vault };
  };

  /** Settings' section to show once open (its own scroll brings it in sight), for a way there from another view. */
  settingsSection = $state<'team' | null>(null);

  openSettings = () => {
    this.settingsSection = null;
    this.settingsOpen = true;
  };

  openTeamSettings = () => {
    this.settingsSection = 'team';
    this.settingsOpen = true;
  };

  closeSettings = () => {
    this.settingsOpen = false;
  };
}

export const appState = new AppState();
