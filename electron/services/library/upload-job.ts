// One queued file's way to the service: hash it first if a duplicate is plausible and skip it if its
// bytes are already there, then send it in chunks through a resumable session (resuming from the
// service's offset after any interruption), or whole when the service has no resume endpoints or
// the file fits one chunk. A file not hashed first is hashed by the sends themselves.
// Transient failures (reset, timeout, 5xx, 429, offset conflicts) back off and retry here.
import type { Hash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { withFreshToken, type ApiClient, type TokenSource } from '../api/client.ts';
import { retryDelayMs } from '../api/backoff.ts';
import { HostError, isNotFound, isUnreachable } from '../api/errors.ts';
import { Acknowledged, UploadSession } from '../api/library-schemas.ts';
import { routes, routeUrl } from '../api/routes.ts';
import type { RouteName } from '../api/routes.ts';
import { offsetRefusedAgain, readAppend, readWholeUpload, refuseUnauthorized, resumeUnsupported, uploadRetryable, type AppendAnswer } from '../api/upload-answers.ts';
import { streamFile } from '../api/upload.ts';
import type { StreamUploadResult } from '../api/upload.ts';
import type { ProgressMeter } from './progress.ts';
import { finishedTwin, worthHashingFirst } from './upload-dedup.ts';
import type { ServiceSizes } from './upload-dedup.ts';
import { cancelled, hashFile, runningHash } from './upload-hash.ts';
import type { RunningHash } from './upload-hash.ts';
import type { ItemPatch, StoredItem, UploadStore } from './upload-store.ts';

export interface JobContext {
  item: StoredItem;
  client: ApiClient;
  tokens: TokenSource | undefined;
  store: UploadStore;
  signal: AbortSignal;
  /** the first chunk's size, and the least a chunk may be */
  chunkBytes: number;
  /** chunks grow towards this on a fast link (equal to chunkBytes for a fixed size) */
  maxChunkBytes: number;
  maxAttempts: number;
  /** per service: false once it answered 404/405 to CreateUpload */
  resumeSupported: Map<string, boolean>;
  /** whether the project at the service may hold a model of a size (listed once for files starting together) */
  serviceSizes: ServiceSizes;
  progress: ProgressMeter;
  /** records a change and tells the renderer */
  save(patch: ItemPatch): StoredItem;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  random: () => number;
}

/** A job under way: without a hash taken first, `running` is the one its sends keep. */
interface Job extends JobContext {
  running: RunningHash | undefined;
}

export async function runJob(ctx: JobContext): Promise<void> {
  await checkUnchanged(ctx.item);
  if (!ctx.item.sha256 && (await worthHashingFirst(ctx.item, ctx))) {
    ctx.item = ctx.save({ state: 'hashing' });
    ctx.item = ctx.save({ sha256: await hashFile(ctx.item.path, ctx.signal) });
  }
  const { sha256 } = ctx.item;
  const twin = sha256 && !ctx.item.allowDuplicate ? await finishedTwin(ctx, sha256) : undefined;
  if (twin) {
    ctx.save({ state: 'done', duplicate: true, modelId: twin.modelId, bytesSent: 0, error: null });
    return;
  }
  ctx.item = ctx.save({ state: 'uploading' });
  const job: Job = { ...ctx, running: sha256 ? undefined : runningHash(ctx.item.path, ctx.item.sizeBytes, ctx.signal) };
  await withRetries(job, () => (useWholeFile(job) ? sendWhole(job) : sendResumable(job)));
}

function useWholeFile(ctx: JobContext): boolean {
  return ctx.item.sizeBytes <= ctx.chunkBytes || ctx.resumeSupported.get(ctx.client.baseUrl) === false;
}

async function withRetries(ctx: JobContext, attempt: () => Promise<void>): Promise<void> {
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (ctx.signal.aborted) throw cancelled(error);
      const failures = ctx.item.attempts + 1;
      if (!uploadRetryable(error) || failures >= ctx.maxAttempts) throw error;
      ctx.item = ctx.save({ attempts: failures, error: describe(error) });
      await ctx.sleep(retryDelayMs(failures - 1, (error as HostError).retryAfterSeconds, { random: ctx.random }), ctx.signal);
    }
  }
}

// Offset corrections in a row without a byte of progress before it counts as a failed attempt.
const MAX_RESYNCS = 5;

async function sendResumable(ctx: Job): Promise<void> {
  let session = await openSession(ctx);
  if (!session) return sendWhole(ctx);
  let resyncs = 0;
  let chunk = ctx.chunkBytes;
  while (!session.complete) {
    const start = session.offset;
    const end = Math.min(ctx.item.sizeBytes, start + chunk);
    // No declared hash for the service to check the bytes against: a file changed since it was
    // added must not be completed from a mix of old and new bytes.
    if (ctx.running && end === ctx.item.sizeBytes) await checkUnchanged(ctx.item);
    const started = Date.now();
    const response = await sendAuthorized(ctx, 'appendUpload', { uploadId: ctx.item.uploadId!, offset: String(start) }, start, end);
    chunk = nextChunkBytes(ctx, end - start, Date.now() - started);
    const answer = readAppend(response);
    if (answer.kind !== 'appended') {
      if (++resyncs > MAX_RESYNCS) throw offsetRefusedAgain();
      session = await resync(ctx, answer);
      if (!session) return sendWhole(ctx);
      continue;
    }
    session = answer.session;
    if (session.offset === end) keepHash(ctx, response, end);
    // Progress was made: earlier failures no longer count towards giving up.
    resyncs = 0;
    ctx.item = ctx.save({ bytesSent: session.offset, attempts: 0, error: null });
  }
  await finish(ctx, session);
}

// Each request costs a round trip and a sync at the service, so a fast link gets bigger chunks; a chunk
// stays within a few seconds of sending, so an interruption still costs only that much.
const CHUNK_SECONDS = 3;

export function nextChunkBytes(ctx: Pick<JobContext, 'chunkBytes' | 'maxChunkBytes'>, sent: number, ms: number): number {
  const bytesPerSecond = (sent / Math.max(ms, 1)) * 1000;
  const wanted = Math.floor(bytesPerSecond * CHUNK_SECONDS);
  return Math.max(ctx.chunkBytes, Math.min(ctx.maxChunkBytes, wanted));
}

/** A new session, or the offset of the one this item already has; null if the service cannot resume. */
async function openSession(ctx: JobContext): Promise<UploadSession | null> {
  const { item, client } = ctx;
  if (item.uploadId && item.baseUrl === client.baseUrl) {
    const known = await client.call('getUploadOffset', UploadSession, { query: { uploadId: item.uploadId } }).catch(notFoundAsNull);
    if (known && (known.state === null || known.state === 'open' || known.complete)) return known;
  }
  const body = {
    projectId: item.projectId, folderId: item.folderId, fileName: item.fileName, sizeBytes: item.sizeBytes, allowDuplicate: item.allowDuplicate,
    ...(item.sha256 ? { sha256: item.sha256 } : {}),
  };
  try {
    const created = await client.call('createUpload', UploadSession, { body });
    ctx.item = ctx.save({ uploadId: created.uploadId, baseUrl: client.baseUrl, bytesSent: created.offset });
    return created;
  } catch (error) {
    // No resume endpoints at this service: send whole files from now on.
    if (resumeUnsupported(error)) {
      ctx.resumeSupported.set(client.baseUrl, false);
      return null;
    }
    throw error;
  }
}

/** After an append the service did not take (our offset is stale, the session busy or gone): where to go on from. */
async function resync(ctx: JobContext, answer: Exclude<AppendAnswer, { kind: 'appended' }>): Promise<UploadSession | null> {
  if (answer.kind === 'offset-moved') {
    // Busy (another append still running, e.g. the one a reset cut off): wait as told.
    if (answer.retryAfterSeconds !== undefined) await ctx.sleep(retryDelayMs(0, answer.retryAfterSeconds, { random: ctx.random }), ctx.signal);
    return { uploadId: ctx.item.uploadId, offset: answer.offset, sizeBytes: ctx.item.sizeBytes, state: 'open', complete: false, chunkSizeLimit: null, duplicate: false, model: null };
  }
  if (answer.kind === 'session-gone') ctx.item = ctx.save({ uploadId: null, bytesSent: 0 });
  return openSession(ctx);
}

async function sendWhole(ctx: Job): Promise<void> {
  const { item } = ctx;
  const query: Record<string, string> = { projectId: item.projectId, fileName: item.fileName };
  if (item.sha256) query.sha256 = item.sha256;
  if (item.folderId) query.folderId = item.folderId;
  if (item.allowDuplicate) query.allowDuplicate = 'true';
  const response = await sendAuthorized(ctx, 'uploadModel', query, 0, item.sizeBytes);
  const uploaded = readWholeUpload(response);
  keepHash(ctx, response, item.sizeBytes);
  await finish(ctx, uploaded);
}

/** A send that went through whole up to `end` carries the running hash on to there. */
function keepHash(ctx: Job, response: SentRange, end: number): void {
  if (ctx.running && response.hash && response.start + response.bytesSent === end) ctx.running.advance(response.hash, end);
}

async function finish(ctx: Job, session: UploadSession): Promise<void> {
  const sha256 = ctx.item.sha256 ?? (await ctx.running!.digest());
  const theirs = session.model?.sha256;
  // Without a declared hash the service checked the bytes against nothing: its hash of what it got
  // must be ours (or the file changed under a resume that caught up from disk), and the file must still
  // be the one whose last bytes were read (or it changed while they were on their way).
  const mismatch = Boolean(theirs && /^[0-9a-f]{64}$/.test(theirs) && theirs !== sha256);
  if (mismatch || (ctx.running && (await fileChange(ctx.item)))) {
    const removed = await discardModel(ctx, session);
    const what = mismatch ? `the service got SHA-256 ${theirs}, the file has ${sha256}` : 'it was saved again during the upload';
    throw new HostError('FILE_INVALID', `${ctx.item.fileName} changed while it was sent (${what}); ${removed ? 'the copy the service received was removed; ' : ''}add it again`);
  }
  ctx.progress.update(ctx.item.sizeBytes, true);
  ctx.item = ctx.save({ state: 'done', sha256, bytesSent: ctx.item.sizeBytes, modelId: session.model?.modelId ?? null, duplicate: session.duplicate, error: null });
}

/**
 * Removes the model an upload of changed bytes created, so no mix of old and new file stays in the
 * library. A duplicate is someone else's model and stays. Best effort: false when nothing was removed.
 */
async function discardModel(ctx: Job, session: UploadSession): Promise<boolean> {
  const modelId = session.model?.modelId;
  if (!modelId || session.duplicate) return false;
  try {
    await ctx.client.call('deleteModel', Acknowledged, { query: { modelId } });
    return true;
  } catch {
    return false;
  }
}

/** One send's answer, with where it started and the running hash it updated (when there is one). */
interface SentRange extends StreamUploadResult {
  start: number;
  hash: Hash | undefined;
}

/** Streams bytes [start, end) with the access token; a 401 renews the token once and sends again. */
async function sendAuthorized(ctx: Job, name: RouteName, query: Record<string, string>, start: number, end: number): Promise<SentRange> {
  const route = routes[name];
  const url = routeUrl(ctx.client.baseUrl, route, query);
  // Each send updates its own copy of the running hash: one cut short must not leave its bytes in it.
  const send = async (token: string): Promise<SentRange> => {
    const hash = await ctx.running?.from(start);
    const result = await streamFile({
      method: route.method as 'PUT' | 'POST', url, headers: { authorization: `Bearer ${token}` },
      filePath: ctx.item.path, start, end, hash, signal: ctx.signal, onProgress: (sent) => ctx.progress.update(start + sent),
    });
    return { ...result, start, hash };
  };
  const response = await withFreshToken(ctx.tokens, (token) => counted(ctx, send(token)));
  refuseUnauthorized(`${route.method} /${route.path}`, response);
  return response;
}

/**
 * Adds a request's body bytes to the item's wire total, failed requests included. Written to the
 * store directly: it must be kept even when the job is being stopped.
 */
async function counted<T extends StreamUploadResult>(ctx: JobContext, sending: Promise<T>): Promise<T> {
  let bytes = 0;
  try {
    const result = await sending;
    bytes = result.bytesSent;
    ctx.client.noteReachability(true);
    return result;
  } catch (error) {
    bytes = Number((error as HostError).details?.bytesSent ?? 0);
    // The app's offline state follows uploads too: a service gone mid-upload is said once, for everything.
    // Checked first: an upload alone failing while the service answers is the upload's row to say.
    if (isUnreachable(error)) ctx.client.noteReachability(false, true);
    throw error;
  } finally {
    const stored = ctx.store.get(ctx.item.id);
    if (stored && bytes > 0) ctx.store.update(ctx.item.id, { bytesTransferred: stored.bytesTransferred + bytes });
  }
}

/** Why the file is no longer the one that was added (gone, or another size or time), or null if it is. */
async function fileChange(item: StoredItem): Promise<HostError | null> {
  const info = await stat(item.path).catch(() => undefined);
  if (!info) return new HostError('FILE_UNREADABLE', `${item.fileName} is no longer there`);
  if (info.size !== item.sizeBytes || Math.floor(info.mtimeMs) !== item.mtimeMs) {
    return new HostError('FILE_INVALID', `${item.fileName} changed after it was added; add it again`);
  }
  return null;
}

async function checkUnchanged(item: StoredItem): Promise<void> {
  const change = await fileChange(item);
  if (change) throw change;
}

function notFoundAsNull(error: unknown): null {
  if (isNotFound(error)) return null;
  throw error;
}

export function describe(error: unknown): { code: HostError['code']; message: string; retryable: boolean } {
  if (error instanceof HostError) return { code: error.code, message: error.message, retryable: error.retryable };
  return { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error), retryable: false };
}
