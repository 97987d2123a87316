// A library wired as the host will wire it (real ApiClient, real session, a SQLite file) against a
// real sandbox on 127.0.0.1. Backoff sleeps are shortened so retry tests run in seconds.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach } from 'node:test';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { createLibrary } from '../../electron/services/library/index.ts';
import type { LibraryDeps, LibraryEvent, UploadItem } from '../../electron/services/library/index.ts';
import { makeTempDir, startTestSandbox } from '../../sandbox/testing.ts';
import type { TestSandbox } from '../../sandbox/testing.ts';
import type { SandboxOptions } from '../../sandbox/server.ts';
import { accountKey } from '../../electron/services/session/session.ts';
import type { Session } from '../../electron/services/session/session.ts';
import { openDatabase } from '../../electron/services/storage/database.ts';
import type { Db } from '../../electron/services/storage/database.ts';
export { CORPUS, corpusFile as corpus } from '../corpus.ts';
import { signedInClient } from '../signed-in.ts';

export interface World {
  sandbox: TestSandbox;
  projectId: string;
  api: ApiClient;
  session: Session;
  db: Db;
  dbPath: string;
  library: ReturnType<typeof createLibrary>;
  events: LibraryEvent[];
  /** the same events with the time they arrived */
  timed: { event: LibraryEvent; at: number }[];
  /** a second library on the same database, as after a host restart */
  reopen(uploads?: LibraryDeps['uploads']): ReturnType<typeof createLibrary>;
  dispose(): Promise<void>;
}

/** Backoff waits are cut to a tenth (and at most 300 ms) so retries are fast but still real. */
export const quickSleep = (ms: number, signal: AbortSignal) => delay(Math.min(300, ms / 10), undefined, { signal });

export async function startWorld(options: { sandbox?: Partial<SandboxOptions>; uploads?: LibraryDeps['uploads'] } = {}): Promise<World> {
  const sandbox = await startTestSandbox({ rateLimits: { default: { limit: 100_000, windowSeconds: 60 } }, ...options.sandbox });
  const projectId = (await sandbox.operator.listProjects())[0].projectId;
  const { client: api, session } = await signedInClient(sandbox, { timeoutMs: 10_000, sleep: (ms) => delay(Math.min(300, ms / 10)) });
  const dir = makeTempDir('printdesk-library-');
  const dbPath = path.join(dir, 'app.sqlite');
  const db = openDatabase(dbPath);
  const events: LibraryEvent[] = [];
  const timed: World['timed'] = [];
  const onEvent = (event: LibraryEvent) => {
    events.push(event);
    timed.push({ event, at: performance.now() });
  };
  const make = (database: Db, uploads = options.uploads) =>
    createLibrary({ client: () => api, account: () => accountKey(session.state(), api.serviceKey), tokens: session.tokens, db: database, onEvent, uploads: { sleep: quickSleep, ...uploads } });
  const library = make(db);
  const extra: Db[] = [];
  return {
    sandbox, projectId, api, session, db, dbPath, library, events, timed,
    reopen(uploads) {
      const again = openDatabase(dbPath);
      extra.push(again);
      return make(again, uploads);
    },
    async dispose() {
      await library.close();
      for (const d of [db, ...extra]) d.close();
      fs.rmSync(dir, { recursive: true, force: true });
      await sandbox.dispose();
    },
  };
}

/** A throwaway directory for files a test makes (broken models, copies). */
export function scratch(): { dir: string; file(name: string, bytes: string | Uint8Array): string; remove(): void } {
  const dir = makeTempDir('printdesk-files-');
  return {
    dir,
    file(name, bytes) {
      const full = path.join(dir, name);
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, bytes);
      return full;
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A valid binary STL of `facets` triangles whose bytes depend on `seed` (distinct files for dedup tests). */
export function binaryStl(facets: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(84 + 50 * facets);
  bytes.write(`test stl ${seed}`, 0);
  bytes.writeUInt32LE(facets, 80);
  let x = seed >>> 0 || 1;
  for (let at = 84; at + 4 <= bytes.length; at += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes.writeUInt32LE(x >>> 0, at);
  }
  return bytes;
}

export async function settle(library: ReturnType<typeof createLibrary>): Promise<UploadItem[]> {
  await library.uploads.idle();
  return library.uploads.list();
}

/** A world and scratch files a test sets up for itself, disposed after each test. */
export function perTest(): { world?: World; files?: ReturnType<typeof scratch> } {
  const held: { world?: World; files?: ReturnType<typeof scratch> } = {};
  afterEach(async () => {
    await held.world?.dispose();
    held.files?.remove();
    held.world = undefined;
    held.files = undefined;
  });
  return held;
}
