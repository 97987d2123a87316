// Who `printdesk batch` signs in as: PRINTDESK_EMAIL and PRINTDESK_PASSWORD (or PRINTDESK_PASSWORD_FILE,
// the way CI and container secrets hand a password over); else, for the embedded sandbox, its demo
// account; else, on a terminal, what the user types (three tries, as `sudo` gives).
// The app's own saved session is encrypted through Electron's safeStorage, which plain Node cannot open.
import { readFile, stat } from 'node:fs/promises';
import { HostError } from '../services/api/errors.ts';
import { EXIT, Exit } from './exit.ts';
import type { CliHost } from './host.ts';
import { PromptCancelled, type Ask } from './prompt.ts';

export interface SignInIo {
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  /** Asks on the terminal; absent when there is none. */
  ask?: Ask;
}

const TRIES = 3;

export async function signIn(host: CliHost, io: SignInIo): Promise<void> {
  const demo = host.demoAccount;
  const email = io.env.PRINTDESK_EMAIL;
  const password = await passwordOf(io);
  if (email && password) return attempt(host, email, password);
  if (!demo && io.ask) return signInAsked(host, io.ask, io.stderr, email, password);
  if (!demo) throw new Exit(EXIT.unreachable, 'Set PRINTDESK_EMAIL and PRINTDESK_PASSWORD, or run this in a terminal to be asked, to sign in to the service.');
  io.stderr.write(`Signing in to the embedded sandbox as ${demo.email} (set PRINTDESK_EMAIL / PRINTDESK_PASSWORD for another account).\n`);
  return attempt(host, demo.email, demo.password);
}

/**
 * PRINTDESK_PASSWORD, or the first line of PRINTDESK_PASSWORD_FILE. A file others can read is used, with a
 * warning: refusing it would break a CI job over a mode bit that is the job's own business.
 */
async function passwordOf(io: SignInIo): Promise<string | undefined> {
  const file = io.env.PRINTDESK_PASSWORD_FILE;
  if (!file) return io.env.PRINTDESK_PASSWORD;
  if (io.env.PRINTDESK_PASSWORD) throw new Exit(EXIT.invalid, 'Set PRINTDESK_PASSWORD or PRINTDESK_PASSWORD_FILE, not both.');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message;
    throw new Exit(EXIT.invalid, `Cannot read PRINTDESK_PASSWORD_FILE (${file}): ${reason}.`);
  }
  const password = text.split(/\r?\n/)[0];
  if (!password) throw new Exit(EXIT.invalid, `PRINTDESK_PASSWORD_FILE (${file}) is empty: its first line is the password.`);
  const { mode } = await stat(file);
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    io.stderr.write(`Warning: ${file} can be read by other users of this computer (chmod 600 it).\n`);
  }
  return password;
}

/** Asks for what the environment lacks; a password from the environment is tried once before asking. */
async function signInAsked(host: CliHost, ask: Ask, stderr: SignInIo['stderr'], knownEmail: string | undefined, knownPassword: string | undefined): Promise<void> {
  stderr.write(`Sign in to ${host.baseUrl}\n`);
  try {
    const email = knownEmail || (await required(ask, 'Email: ', false)).trim();
    for (let tries = 1; ; tries++) {
      const password = tries === 1 && knownPassword ? knownPassword : await required(ask, 'Password: ', true);
      try {
        await host.call('session:signIn', { email, password });
        return;
      } catch (error) {
        if (!(error instanceof HostError && error.code === 'AUTHENTICATION') || tries === TRIES) throw error;
        stderr.write(`${error.message.replace(/\.?$/, '.')} Try again.\n`);
      }
    }
  } catch (error) {
    if (error instanceof Exit) throw error;
    if (error instanceof PromptCancelled) throw new Exit(error.endOfInput ? EXIT.unreachable : EXIT.interrupted, `${error.message}: nothing was sent.`);
    throw signInFailed(host, error);
  }
}

async function required(ask: Ask, question: string, hidden: boolean): Promise<string> {
  const answer = await ask(question, { hidden });
  if (!answer.trim()) throw new Exit(EXIT.unreachable, `No ${question.replace(': ', '').toLowerCase()} given: nothing was sent.`);
  return answer;
}

async function attempt(host: CliHost, email: string, password: string): Promise<void> {
  try {
    await host.call('session:signIn', { email, password });
  } catch (error) {
    throw signInFailed(host, error);
  }
}

function signInFailed(host: CliHost, error: unknown): Exit {
  return new Exit(EXIT.unreachable, `Cannot sign in at ${host.baseUrl}: ${error instanceof Error ? error.message : String(error)}`);
}
