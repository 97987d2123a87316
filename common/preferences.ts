// The settings' values the renderer needs as well as the host: the themes to choose from and what a new
// user starts with. Their shape is the zod schema in electron/contract/schemas/preferences.ts.
import type { Settings } from '../electron/contract/schemas/preferences.ts';

export const THEMES = ['system', 'light', 'dark'] as const;

export const DEFAULT_SETTINGS: Settings = {
  defaultCountry: null,
  defaultShipping: null,
  theme: 'system',
  units: 'mm',
  workOffline: false,
  notifications: true,
};
