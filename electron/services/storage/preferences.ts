import { ServiceSetting } from '../../contract/channels.ts';
import { DEFAULT_SETTINGS } from '../../../common/preferences.ts';
import { Settings, type SettingsPatch } from '../../contract/schemas/preferences.ts';

/** The part of electron-store (or its base, conf, outside Electron) the app uses. */
export interface KeyValueStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** Typed preferences over electron-store; every read is checked, so a hand-edited file cannot crash the app. */
export function createPreferences(store: KeyValueStore) {
  const projectKey = (baseUrl: string, email: string) => `selectedProject.${encodeKey(baseUrl)}.${encodeKey(email)}`;
  /** The user's settings; each read on its own, so one spoilt by hand leaves the others as they were set. */
  function settings(): Settings {
    const stored = store.get('settings');
    const saved = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
    const read = <K extends keyof Settings>(key: K): Settings[K] => {
      const parsed = Settings.shape[key].safeParse(saved[key]);
      return parsed.success ? (parsed.data as Settings[K]) : DEFAULT_SETTINGS[key];
    };
    return Object.fromEntries(Object.keys(DEFAULT_SETTINGS).map((key) => [key, read(key as keyof Settings)])) as Settings;
  }
  return {
    service(): ServiceSetting {
      const parsed = ServiceSetting.safeParse(store.get('service'));
      return parsed.success ? parsed.data : { kind: 'sandbox' };
    },
    setService(setting: ServiceSetting) {
      store.set('service', setting);
    },
    selectedProject(baseUrl: string, email: string): string | null {
      const value = store.get(projectKey(baseUrl, email));
      return typeof value === 'string' ? value : null;
    },
    setSelectedProject(baseUrl: string, email: string, projectId: string | null) {
      if (projectId) store.set(projectKey(baseUrl, email), projectId);
      else store.delete(projectKey(baseUrl, email));
    },
    /** The last project list seen, to browse while offline. */
    cachedProjects(baseUrl: string, email: string): unknown {
      return store.get(`projects.${encodeKey(baseUrl)}.${encodeKey(email)}`);
    },
    cacheProjects(baseUrl: string, email: string, projects: unknown) {
      store.set(`projects.${encodeKey(baseUrl)}.${encodeKey(email)}`, projects);
    },
    vaultNoticeDismissed(): boolean {
      return store.get('vaultNoticeDismissed') === true;
    },
    dismissVaultNotice() {
      store.set('vaultNoticeDismissed', true);
    },
    settings,
    updateSettings(patch: SettingsPatch): Settings {
      const next = Settings.parse({ ...settings(), ...patch });
      store.set('settings', next);
      return next;
    },
  };
}
export type Preferences = ReturnType<typeof createPreferences>;

// electron-store treats dots as paths; keep addresses and e-mails as single keys.
function encodeKey(value: string): string {
  return Buffer.from(value).toString('base64url');
}
