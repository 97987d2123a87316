// Library thumbnails, rendered once per file content and cached by its SHA-256.
// Two levels: an in-memory LRU (instant for the tiles on screen; capped so a big library cannot grow it
// without bound) in front of IndexedDB (survives restarts, so a thumbnail is rendered once per file, not
// once per session; a PNG data URL is ~5–20 KB). Without IndexedDB (private mode, tests) memory alone works.
import { ModelParseError } from '../../common/models/index.ts';
import { drawPicture } from './picture-worker.ts';
import type { ShownModel } from './stage-api.ts';
import type { ModelClient } from './worker-client.ts';
import { sharedModelClient } from './worker-client.ts';
import { upAxisFor } from './up-axis.ts';

export const THUMBNAIL_SIZE = 160;
const MEMORY_ENTRIES = 200;
const DB_NAME = 'printdesk-thumbnails';
const STORE = 'thumbnails';

const memory = new Map<string, string>();

/**
 * Content our parsers could not read, by SHA-256, with the reason: the library marks those rows, since a
 * file that passed the upload's quick check may still fail in full (a NaN coordinate, an index out of
 * range). Kept for the session only: a later version of the parsers judges the file again.
 */
const unreadable = new Map<string, string>();
const unreadableListeners = new Set<(sha256: string, reason: string) => void>();

export function unreadableReason(sha256: string): string | undefined {
  return unreadable.get(sha256.toLowerCase());
}

/** Calls `listener` whenever any content is found unreadable; returns the unsubscribe. */
export function whenAnyUnreadable(listener: (sha256: string, reason: string) => void): () => void {
  unreadableListeners.add(listener);
  return () => void unreadableListeners.delete(listener);
}

/** Calls `listener` when content is found unreadable; returns the unsubscribe. */
export function whenUnreadable(sha256: string, listener: (reason: string) => void): () => void {
  const wanted = sha256.toLowerCase();
  const entry = (hash: string, reason: string) => hash === wanted && listener(reason);
  unreadableListeners.add(entry);
  return () => void unreadableListeners.delete(entry);
}

function remember(key: string, url: string): void {
  memory.delete(key);
  memory.set(key, url);
  while (memory.size > MEMORY_ENTRIES) memory.delete(memory.keys().next().value as string);
}

export async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

let database: Promise<IDBDatabase | null> | null = null;

function openDatabase(): Promise<IDBDatabase | null> {
  database ??= new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve(null);
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
  });
  return database;
}

async function stored(key: string): Promise<string | undefined> {
  const db = await openDatabase();
  if (!db) return undefined;
  return new Promise((resolve) => {
    const request = db.transaction(STORE, 'readonly').objectStore(STORE).get(key);
    request.onsuccess = () => resolve(typeof request.result === 'string' ? request.result : undefined);
    request.onerror = () => resolve(undefined);
  });
}

async function store(key: string, url: string): Promise<void> {
  const db = await openDatabase();
  if (!db) return;
  await new Promise<void>((resolve) => {
    const transaction = db.transaction(STORE, 'readwrite');
    transaction.objectStore(STORE).put(url, key);
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => resolve();
  });
}

const pending = new Map<string, Promise<string>>();

/** Triangles a thumbnail is drawn with at most: a 160-pixel picture shows no more of a larger model. */
const THUMBNAIL_TRIANGLES = 20_000;

/** Marks content our parsers refused (not a cancelled or crashed reading: the file may be fine). */
export function markUnreadable(sha256: string, error: unknown): void {
  if (!(error instanceof ModelParseError) || error.code === 'CANCELLED') return;
  const hash = sha256.toLowerCase();
  unreadable.set(hash, error.message);
  for (const listener of unreadableListeners) listener(hash, error.message);
}

/**
 * The thumbnail of `hash` at `size`: from memory, IndexedDB, or `draw` (once, however many ask at the same
 * time). `fresh` draws it again whatever is kept.
 */
async function thumbnailOf(hash: string, size: number, draw: () => Promise<string>, fresh = false): Promise<string> {
  const key = `${hash}@${size}`;
  const cached = memory.get(key);
  if (cached && !fresh) {
    remember(key, cached);
    return cached;
  }
  const inFlight = pending.get(key);
  // A fresh drawing (the model was turned) must not take the picture of one begun the old way up.
  if (inFlight) return fresh ? inFlight.catch(() => undefined).then(() => thumbnailOf(hash, size, draw, true)) : inFlight;
  const work = (async () => {
    const persisted = fresh ? undefined : await stored(key);
    if (persisted) return persisted;
    const url = await draw();
    await store(key, url);
    return url;
  })();
  pending.set(key, work);
  try {
    const url = await work;
    remember(key, url);
    for (const listener of listeners) listener(key, url);
    return url;
  } finally {
    pending.delete(key);
  }
}

/**
 * A PNG data URL of the model in `bytes`, which are handed to the worker (detached). Only a copy of a few
 * thousand triangles comes back, no topology is computed, and it is drawn off the page's thread where the
 * browser can, standing the way the user chose for this content. `sha256` saves hashing the bytes when
 * the caller knows it.
 */
export async function thumbnailFor(bytes: ArrayBuffer, name: string, options: { client?: ModelClient; size?: number; sha256?: string } = {}): Promise<string> {
  const hash = options.sha256?.toLowerCase() ?? (await sha256Hex(bytes));
  const size = options.size ?? THUMBNAIL_SIZE;
  const draw = async () => {
    const model = await (options.client ?? sharedModelClient())
      .parse(bytes, name, { skipTopology: true, proxy: THUMBNAIL_TRIANGLES, pictureOnly: true })
      .catch((error: unknown) => {
        markUnreadable(hash, error);
        throw error;
      });
    return drawPicture(model, size, upAxisFor(hash, model.format));
  };
  return thumbnailOf(hash, size, draw);
}

/**
 * The thumbnail of a model the viewer shows (drawn where the preview is, from its proxy if it has one),
 * unless there is one; `fresh` draws it again (the user turned the model another way up).
 */
export function thumbnailOfShown(sha256: string, shown: ShownModel, fresh = false): Promise<string> {
  return thumbnailOf(sha256.toLowerCase(), THUMBNAIL_SIZE, () => shown.picture(THUMBNAIL_SIZE), fresh);
}

const listeners = new Set<(key: string, url: string) => void>();

/** Calls `listener` when the thumbnail of this content becomes available; returns the unsubscribe. */
export function whenThumbnail(sha256: string, listener: (url: string) => void, size = THUMBNAIL_SIZE): () => void {
  const wanted = `${sha256.toLowerCase()}@${size}`;
  const entry = (key: string, url: string) => key === wanted && listener(url);
  listeners.add(entry);
  return () => void listeners.delete(entry);
}

/** The thumbnail of content already rendered once (by its SHA-256), without rendering anything. */
export async function cachedThumbnail(sha256: string, size = THUMBNAIL_SIZE): Promise<string | undefined> {
  const key = `${sha256.toLowerCase()}@${size}`;
  const hit = memory.get(key) ?? (await stored(key));
  if (hit) remember(key, hit);
  return hit;
}

// Files a user adds are drawn one at a time in the background: the library must stay responsive. Only a
// proxy of 20K triangles comes back from the worker, so a large file costs its reading, not its drawing;
// past this size a file is drawn when its preview opens, from the preview's own reading.
const THUMBNAIL_FILE_LIMIT = 256 * 1024 * 1024;
let queue: Promise<unknown> = Promise.resolve();

/** Renders thumbnails of freshly added files, so the library shows them once their upload is done. */
export function thumbnailsInBackground(files: readonly File[]): Promise<unknown> {
  for (const file of files) {
    if (file.size > THUMBNAIL_FILE_LIMIT) continue;
    queue = queue.then(async () => thumbnailFor(await file.arrayBuffer(), file.name)).catch(() => undefined);
  }
  return queue;
}
