// The durable upload queue: files are checked, stored in SQLite, then run a few at a time
// (p-queue). Pause, resume, cancel and retry act on stored state first and on the running job
// second, so a crash at any moment leaves a queue that start() picks up again. The queue is the
// signed-in account's: its items alone are listed, acted on and sent; another's wait for their owner.
import { setTimeout as delay } from 'node:timers/promises';
import PQueue from 'p-queue';
import type { ApiClient, TokenSource } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import { inGroup } from '../../../common/errors.ts';
import { Acknowledged } from '../api/library-schemas.ts';
import { createSpecChecker } from '../models/spec-check.ts';
import type { Db } from '../storage/database.ts';
import { DEFAULT_MAX_FILE_BYTES, expandPaths, preflight } from './preflight.ts';
import { createProgressMeter } from './progress.ts';
import type { UploadProgress } from './progress.ts';
import { serviceSizes } from './upload-dedup.ts';
import { describe, runJob } from './upload-job.ts';
import { openUploadStore, publicItem } from './upload-store.ts';
import type { ItemPatch, NewItem, StoredItem } from './upload-store.ts';
import type { EnqueueResult, Rejection, UploadItem } from '../../contract/schemas/library.ts';

export type UploadEvent = { type: 'upload:changed'; item: UploadItem } | UploadProgress | { type: 'upload:removed'; ids: string[] };

export interface UploadQueueDeps {
  client: () => ApiClient;
  /** the signed-in account (service and e-mail), null while signed out */
  account: () => string | null;
  tokens?: TokenSource;
  db: Db;
  now?: () => number;
  onEvent: (event: UploadEvent) => void;
  /** files sent at once (default 3) */
  concurrency?: number;
  /** bytes per resumable append, and the size up to which a file goes whole (default: 16 MiB, growing to 64 MiB on a fast link) */
  chunkBytes?: number;
  /** failed attempts in a row before an item fails (default 8) */
  maxAttempts?: number;
  maxFileBytes?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** true while no upload may start (Work offline): queued items wait for the next start() */
  held?: () => boolean;
}

export interface EnqueueRequest {
  projectId: string;
  folderId?: string | null;
  /** files and folders (walked for model files) */
  paths: readonly string[];
  /** upload even when the project already has the same bytes */
  allowDuplicate?: boolean;
  /** upload 3MF files that break the 3MF specification (the user was told, and chose to) */
  acceptSpecBreaches?: boolean;
}

export const DEFAULT_CHUNK_BYTES = 16 * 1024 * 1024;
/** The most the sandbox takes in one append (docs/api-assumptions.md). */
export const MAX_CHUNK_BYTES = 64 * 1024 * 1024;
// Files checked and stored per transaction when a large drop is added.
const ENQUEUE_BATCH = 100;

export type UploadQueue = ReturnType<typeof createUploadQueue>;

export function createUploadQueue(deps: UploadQueueDeps) {
  const { client, account, tokens, db, onEvent, now = Date.now, random = Math.random } = deps;
  const store = openUploadStore(db, now);
  const workers = new PQueue({ concurrency: deps.concurrency ?? 3 });
  const running = new Map<string, { controller: AbortController; reason: 'pause' | 'cancel' | 'shutdown' | null }>();
  const resumeSupported = new Map<string, boolean>();
  const sizes = serviceSizes(client, now);
  const sleep = deps.sleep ?? ((ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }));
  let closed = false;
  // Each 3MF is read before it is queued: one that breaks the specification waits for the user's word.
  const specChecker = createSpecChecker();

  function save(id: string, patch: ItemPatch): StoredItem {
    const item = store.update(id, patch);
    onEvent({ type: 'upload:changed', item: publicItem(item) });
    return item;
  }

  function schedule(id: string): void {
    if (!closed) void workers.add(() => run(id));
  }

  async function run(id: string): Promise<void> {
    // A pause and resume in quick succession schedules an item twice; it must still run once.
    if (running.has(id) || closed || deps.held?.()) return;
    const item = store.get(id);
    // Scheduled before a sign-out or a switch of account: it waits for its owner's next start().
    if (!item || item.state !== 'queued' || item.account !== account()) return;
    const controller = new AbortController();
    const slot = { controller, reason: null as 'pause' | 'cancel' | 'shutdown' | null };
    running.set(id, slot);
    try {
      await runJob({
        item, client: client(), tokens, store, signal: controller.signal, resumeSupported, serviceSizes: sizes, random, sleep,
        chunkBytes: deps.chunkBytes ?? DEFAULT_CHUNK_BYTES,
        // A size the caller fixed stays fixed; by default chunks grow with the link's speed.
        maxChunkBytes: deps.chunkBytes ?? MAX_CHUNK_BYTES,
        maxAttempts: deps.maxAttempts ?? 8,
        progress: createProgressMeter(id, item.sizeBytes, onEvent, now),
        // Once stopped, the job's own writes are stale: the first one ends it instead.
        save: (patch) => {
          if (controller.signal.aborted) throw new HostError('CANCELLED', 'The upload was stopped');
          return save(id, patch);
        },
      });
    } catch (error) {
      // pause() and cancel() have already recorded their state; a shutdown leaves it for start().
      if (slot.reason === null) {
        const problem = describe(error);
        // A session that has ended cannot upload: the item waits for the user to sign in again.
        save(id, { state: inGroup('signedOut', problem.code) ? 'paused' : 'failed', error: problem });
      }
    } finally {
      running.delete(id);
      // Stopped by a sign-out its owner has already undone: start() queued it while it was winding down,
      // and its schedule() found it still running.
      if (slot.reason === 'shutdown') {
        const left = store.get(id);
        if (left?.state === 'queued' && left.account === account()) schedule(id);
      }
    }
  }

  async function enqueue(request: EnqueueRequest): Promise<EnqueueResult> {
    const owner = signedIn();
    const { files, rejections } = await expandPaths(request.paths);
    sizes.forget(request.projectId);
    const result: EnqueueResult = { added: [], rejected: [...rejections], alreadyQueued: [], held: [] };
    const place = (filePath: string) => ({ account: owner, projectId: request.projectId, folderId: request.folderId ?? null, path: filePath, allowDuplicate: request.allowDuplicate ?? false });
    // Rejected files are listed as failed items too, so the error list shows them beside the rest.
    const failed = ({ path: filePath, code, message }: Rejection): NewItem => ({
      ...place(filePath), fileName: filePath.split(/[\\/]/).pop()!, sizeBytes: 0, mtimeMs: 0, state: 'failed', error: { code, message, retryable: false },
    });
    let batch: NewItem[] = rejections.map(failed);
    const commit = () => {
      for (const item of store.insertMany(batch)) {
        onEvent({ type: 'upload:changed', item: publicItem(item) });
        if (item.state !== 'queued') continue;
        result.added.push(publicItem(item));
        schedule(item.id);
      }
      batch = [];
    };
    const unique = [...new Set(files)];
    for (const [index, filePath] of unique.entries()) {
      const checked = await preflight(filePath, deps.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
      if (!checked.ok) {
        result.rejected.push(checked.rejection);
        batch.push(failed(checked.rejection));
      } else {
        const twin = request.allowDuplicate ? undefined : store.sameFile({ ...place(filePath), ...checked.file });
        const breaches = twin || request.acceptSpecBreaches ? null : await specChecker.breaches(filePath, checked.file.sizeBytes);
        if (twin) result.alreadyQueued.push(publicItem(twin));
        else if (breaches) result.held.push({ path: filePath, fileName: checked.file.fileName, message: breaches });
        else batch.push({ ...place(filePath), ...checked.file });
      }
      // A big drop starts uploading while the rest is still being checked.
      if ((index + 1) % ENQUEUE_BATCH === 0) commit();
    }
    commit();
    return result;
  }

  function pause(id: string): UploadItem {
    const item = existing(id);
    if (!['queued', 'hashing', 'uploading'].includes(item.state)) return publicItem(item);
    stop(id, 'pause');
    return publicItem(save(id, { state: 'paused' }));
  }

  function resume(id: string): UploadItem {
    const item = existing(id);
    if (item.state !== 'paused') return publicItem(item);
    const resumed = save(id, { state: 'queued', error: null });
    schedule(id);
    return publicItem(resumed);
  }

  function cancel(id: string): UploadItem {
    const item = existing(id);
    if (item.state === 'done' || item.state === 'cancelled') return publicItem(item);
    stop(id, 'cancel');
    const cancelled = save(id, { state: 'cancelled' });
    // Frees the service's partial bytes now rather than at expiry; failing that is harmless.
    if (item.uploadId && item.baseUrl === client().baseUrl) {
      void client().call('cancelUpload', Acknowledged, { query: { uploadId: item.uploadId } }).catch(() => {});
    }
    return publicItem(cancelled);
  }

  /** Failed or cancelled items go again; the file is checked again first, as it may have been fixed. */
  async function retry(id: string): Promise<UploadItem> {
    const item = existing(id);
    if (item.state !== 'failed' && item.state !== 'cancelled') return publicItem(item);
    const checked = await preflight(item.path, deps.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
    if (!checked.ok) {
      return publicItem(save(id, { state: 'failed', error: { code: checked.rejection.code, message: checked.rejection.message, retryable: false } }));
    }
    const same = checked.file.sizeBytes === item.sizeBytes && checked.file.mtimeMs === item.mtimeMs;
    const patch: ItemPatch = { state: 'queued', error: null, attempts: 0 };
    // A changed file starts over: its old hash and partial upload no longer describe it.
    if (!same) Object.assign(patch, { sizeBytes: checked.file.sizeBytes, mtimeMs: checked.file.mtimeMs, sha256: null, uploadId: null, bytesSent: 0 });
    const queued = save(id, patch);
    schedule(id);
    return publicItem(queued);
  }

  function stop(id: string, reason: 'pause' | 'cancel' | 'shutdown'): void {
    const slot = running.get(id);
    if (!slot) return;
    slot.reason = reason;
    slot.controller.abort();
  }

  /** The same message for another account's item as for none: the page learns nothing of other accounts. */
  function existing(id: string): StoredItem {
    const item = store.get(id);
    if (!item || item.account !== account()) throw new HostError('INVALID_INPUT', `No upload ${id} in the queue`);
    return item;
  }

  function signedIn(): string {
    const owner = account();
    if (owner === null) throw new HostError('NOT_SIGNED_IN', 'Sign in to upload models.');
    return owner;
  }

  /** The signed-in account's items; none while signed out. */
  function mine(): StoredItem[] {
    const owner = account();
    return owner === null ? [] : store.all(owner);
  }

  return {
    enqueue,
    pause,
    resume,
    cancel,
    retry,
    list: (): UploadItem[] => mine().map(publicItem),
    /** The account's items as stored, with each file's modified time when queued (for reading it back). */
    stored: (): StoredItem[] => mine(),
    /** Every account's files, signed in or not (see UploadStore.paths). */
    pathsInUse: (): string[] => store.paths(),
    get: (id: string): UploadItem | undefined => {
      const item = store.get(id);
      return item && item.account === account() ? publicItem(item) : undefined;
    },
    pauseAll: () => mine().filter((i) => ['queued', 'hashing', 'uploading'].includes(i.state)).map((i) => pause(i.id)),
    resumeAll: () => mine().filter((i) => i.state === 'paused').map((i) => resume(i.id)),
    /** Removes finished items (done, failed, cancelled) from the list. */
    clearFinished(): string[] {
      const ids = mine().filter((i) => ['done', 'failed', 'cancelled'].includes(i.state)).map((i) => i.id);
      store.remove(ids);
      if (ids.length) onEvent({ type: 'upload:removed', ids });
      return ids;
    },
    /** Picks up what the account left (before a restart or a sign-out): items being worked on go back in line. */
    start(): void {
      const owner = account();
      if (owner === null) return;
      // A sign-in over another account's session (no sign-out between) stops that account's uploads too.
      for (const id of running.keys()) if (store.get(id)?.account !== owner) stop(id, 'shutdown');
      store.adopt(owner);
      for (const item of store.all(owner)) {
        if (item.state === 'hashing' || item.state === 'uploading') save(item.id, { state: 'queued' });
        if (item.state === 'hashing' || item.state === 'uploading' || item.state === 'queued') schedule(item.id);
      }
    },
    /**
     * Stops the account's running uploads at a sign-out, their states kept as for a shutdown: they carry on
     * from the service's confirmed offset when the account signs in again, not under the next account.
     */
    suspend(): void {
      for (const id of running.keys()) stop(id, 'shutdown');
    },
    /** Resolves when nothing is waiting or running. */
    idle: () => workers.onIdle(),
    /** Stops work for a shutdown without touching stored states: start() resumes it next time. */
    async close(): Promise<void> {
      closed = true;
      await specChecker.close();
      workers.clear();
      for (const id of running.keys()) stop(id, 'shutdown');
      await workers.onIdle();
    },
  };
}
