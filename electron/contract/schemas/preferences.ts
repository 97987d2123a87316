// The settings a user sets once (Settings view), as they cross the contract and are kept on disk.
import { z } from 'zod';
import { THEMES } from '../../../common/preferences.ts';
import { ShippingChoice } from '../../services/batch/schemas.ts';

export const Theme = z.enum(THEMES);
export type Theme = z.infer<typeof Theme>;

/** How sizes read: millimetres, or inches for those who think in them. The service's own units stay (g, cm). */
export const SizeUnit = z.enum(['mm', 'in']);
export type SizeUnit = z.infer<typeof SizeUnit>;

export const Settings = z.object({
  /** ISO 3166-1 alpha-2 code a new order and a quote start with; null for none */
  defaultCountry: z.string().regex(/^[A-Z]{2}$/, 'A two-letter country code').nullable(),
  /** how a new order's shipping is chosen until the user picks a method; null for no rule */
  defaultShipping: ShippingChoice.nullable(),
  theme: Theme,
  units: SizeUnit,
  /** hold the outbox and make no calls to the service, as a mail client's "Work offline" */
  workOffline: z.boolean(),
  /** say so (OS notification, or the page's) when orders that waited offline are placed */
  notifications: z.boolean(),
});
export type Settings = z.infer<typeof Settings>;

export const SettingsPatch = Settings.partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

