// First-start data: a demo account with one project, and an account with none, so the app's
// sign-in and empty states can be tried without running any operator command. Their password is
// made for each data directory and kept there (mode 0600): a password printed in a README would let
// any local user sign in to a sandbox on this machine's loopback.
import fs from 'node:fs';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { createPrivateFileOnce } from './private-files.ts';
import type { Db } from './db/open.ts';
import { hashPassword } from './passwords.ts';
import { addMember, findUserByEmail, insertProject, insertUser } from './store/accounts.ts';

export const DEMO_EMAIL = 'demo@printdesk.test';
export const NO_PROJECT_EMAIL = 'noproject@printdesk.test';
export const DEMO_PROJECT_NAME = 'Demo project';
/** Where a data directory keeps the seeded accounts' password, for this user alone. */
export const DEMO_PASSWORD_FILE = 'demo-password';

export interface Account {
  email: string;
  password: string;
}

export interface DemoAccounts {
  /** the demo account, with the demo project */
  demo: Account;
  /** an account with no project */
  noProject: Account;
}

const SEEDED_KEY = 'seeded_at';
// No 0/o, 1/l/i: read aloud or off a terminal and typed into another client.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/**
 * Seeds once per database (a flag in `meta`, not "no users yet", so deleting users never reseeds) and
 * answers the seeded accounts with this data directory's password, made on first use. A password made for
 * a database seeded before (by a PrintDesk that seeded the published "printdesk-demo", or after the file was
 * deleted to have a new one) replaces the seeded accounts' old one.
 */
export async function seedDemoAccounts(db: Db, dataDir: string): Promise<DemoAccounts> {
  const { password, created } = demoPassword(dataDir);
  const accounts = { demo: { email: DEMO_EMAIL, password }, noProject: { email: NO_PROJECT_EMAIL, password } };
  if (!isSeeded(db)) await seed(db, password);
  else if (created) await setPassword(db, password);
  return accounts;
}

/** The seeded accounts' password of a data directory, made (0600) if it has none yet. */
function demoPassword(dataDir: string): { password: string; created: boolean } {
  const file = path.join(dataDir, DEMO_PASSWORD_FILE);
  const made = Array.from({ length: 4 }, () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')).join('-');
  // A server and an operator command starting together agree on the first one written.
  if (createPrivateFileOnce(file, `${made}\n`)) return { password: made, created: true };
  const password = fs.readFileSync(file, 'utf8').trim();
  if (!password) throw new Error(`${file} is empty: delete it and start again to make a new demo password`);
  return { password, created: false };
}

async function seed(db: Db, password: string): Promise<void> {
  const [demoHash, noProjectHash] = await Promise.all([hashPassword(password), hashPassword(password)]);
  db.transaction(() => {
    // Checked again under the write lock: a server and an operator command may start together.
    if (isSeeded(db)) return;
    const demo = insertUser(db, DEMO_EMAIL, demoHash);
    insertUser(db, NO_PROJECT_EMAIL, noProjectHash);
    addMember(db, insertProject(db, DEMO_PROJECT_NAME), demo.user_id);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(SEEDED_KEY, new Date().toISOString());
  }).immediate();
}

async function setPassword(db: Db, password: string): Promise<void> {
  const hash = await hashPassword(password);
  for (const email of [DEMO_EMAIL, NO_PROJECT_EMAIL]) {
    const user = findUserByEmail(db, email);
    if (user) db.prepare('UPDATE users SET password_hash = ? WHERE user_id = ?').run(hash, user.user_id);
  }
}

function isSeeded(db: Db): boolean {
  return db.prepare('SELECT 1 FROM meta WHERE key = ?').get(SEEDED_KEY) !== undefined;
}
