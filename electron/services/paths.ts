// Where PrintDesk keeps its things in a data folder, and the name its embedded sandbox goes by: the app,
// browser mode, the CLI and the benches read them here, so all of them open the same files.
import { join } from 'node:path';

/**
 * The service part of the account key drafts, orders and batches are filed under when the service is the
 * embedded sandbox: it listens on a new port each start, while its data, and so the account, stay the same.
 */
export const SANDBOX_SERVICE_KEY = 'embedded-sandbox';

/** The SQLite database: drafts, the outbox, uploads, batches. */
export const databasePath = (userDataDir: string) => join(userDataDir, 'printdesk.db');

/** The preferences file (electron-store's, and conf's in browser mode): the CLI reads the store chosen there. */
export const preferencesPath = (userDataDir: string) => join(userDataDir, 'config.json');

/** The embedded sandbox's own data (its accounts, models and orders). */
export const sandboxDataDir = (userDataDir: string) => join(userDataDir, 'sandbox');

/** Models downloaded for previews. */
export const modelCacheDir = (userDataDir: string) => join(userDataDir, 'model-cache');
