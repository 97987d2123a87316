import { homedir } from 'node:os';
import { join } from 'node:path';

export const PRODUCT_NAME = 'PrintDesk';

/** Where Electron's app.getPath('userData') points, so browser mode and the CLI share the app's data. */
export function defaultUserDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.PRINTDESK_USER_DATA) return env.PRINTDESK_USER_DATA;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), PRODUCT_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', PRODUCT_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), PRODUCT_NAME);
}
