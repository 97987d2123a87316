// First-start data: a demo account with one project, and an account with none, so the app's
// sign-in and empty states can be tried without running any operator command.
import type { Db } from './db/open.ts';
import { hashPassword } from './passwords.ts';
import { addMember, insertProject, insertUser } from './store/accounts.ts';

export const DEMO_ACCOUNT = { email: 'demo@printdesk.test', password: 'printdesk-demo' } as const;
export const NO_PROJECT_ACCOUNT = { email: 'noproject@printdesk.test', password: 'printdesk-demo' } as const;
export const DEMO_PROJECT_NAME = 'Demo project';

const SEEDED_KEY = 'seeded_at';

/** Seeds once per database; a flag in `meta` (not "no users yet") so deleting users never reseeds. */
export async function seedIfNew(db: Db): Promise<boolean> {
  if (isSeeded(db)) return false;
  const [demoHash, noProjectHash] = await Promise.all([
    hashPassword(DEMO_ACCOUNT.password),
    hashPassword(NO_PROJECT_ACCOUNT.password),
  ]);
  return db.transaction(() => {
    // Checked again under the write lock: a server and an operator command may start together.
    if (isSeeded(db)) return false;
    const demo = insertUser(db, DEMO_ACCOUNT.email, demoHash);
    insertUser(db, NO_PROJECT_ACCOUNT.email, noProjectHash);
    addMember(db, insertProject(db, DEMO_PROJECT_NAME), demo.user_id);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(SEEDED_KEY, new Date().toISOString());
    return true;
  }).immediate();
}

function isSeeded(db: Db): boolean {
  return db.prepare('SELECT 1 FROM meta WHERE key = ?').get(SEEDED_KEY) !== undefined;
}
