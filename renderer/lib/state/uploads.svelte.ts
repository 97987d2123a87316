import type { EnqueueResult, UploadItem, UploadProgress } from '../../../electron/contract/schemas/library.ts';
import { confirmation } from './confirmation.svelte.ts';
import { printdesk, unwrap } from '../bridge.ts';
import { thumbnailsInBackground } from '../../viewer/thumbnails.ts';

/** The upload queue as the host reports it, with throttled progress per file. */
class UploadsStore {
  /** Every upload of the signed-in account on this computer, whatever its project. */
  all = $state<UploadItem[]>([]);
  /** The project the library shows: the queue lists its uploads only (others go on unseen). */
  projectId = $state<string | null>(null);
  progress = $state<Record<string, UploadProgress>>({});
  /**
   * What the last drop or pick did, in parts: "3 added to the upload queue" is news until those uploads
   * are through and goes then; a file left out or refused stays said until dismissed or the next drop.
   */
  private noticeParts = $state<{ text: string; until?: string[] }[]>([]);

  get notice(): string | null {
    return this.noticeParts.map((part) => part.text).join(' ') || null;
  }

  /** Says this alone, until dismissed or the next drop. */
  set notice(text: string | null) {
    this.noticeParts = text ? [{ text }] : [];
  }

  /** Adds to what is said, after what is there; with `until`, only while one of those uploads is under way. */
  addNotice(text: string, until?: string[]): void {
    this.noticeParts = [...this.noticeParts, { text, until }];
  }

  private dropSettledNotices(): void {
    const moving = new Set(this.all.filter((i) => ['queued', 'hashing', 'uploading', 'paused'].includes(i.state)).map((i) => i.id));
    const stays = (part: { until?: string[] }) => !part.until || part.until.some((id) => moving.has(id));
    if (!this.noticeParts.every(stays)) this.noticeParts = this.noticeParts.filter(stays);
  }

  private upsert(item: UploadItem): void {
    const index = this.all.findIndex((i) => i.id === item.id);
    if (index === -1) this.all = [...this.all, item];
    else this.all[index] = item;
  }

  dismissNotice = () => {
    this.noticeParts = [];
  };

  constructor() {
    printdesk.on('uploads:changed', (item) => {
      this.upsert(item);
      this.dropSettledNotices();
    });
    printdesk.on('uploads:progress', (progress) => {
      this.progress[progress.id] = progress;
    });
    printdesk.on('uploads:removed', ({ ids }) => {
      this.all = this.all.filter((i) => !ids.includes(i.id));
      this.dropSettledNotices();
    });
    // The queue is the account's: nothing of it stays on screen for the next one.
    printdesk.on('session:changed', (state) => {
      if (state.status === 'signed-in') return;
      this.all = [];
      this.progress = {};
      this.notice = null;
    });
  }

  get items() {
    return this.all.filter((i) => i.projectId === this.projectId);
  }

  /** Uploads still moving in projects not shown. */
  get elsewhere() {
    return this.all.filter((i) => i.projectId !== this.projectId && ['queued', 'hashing', 'uploading', 'paused'].includes(i.state)).length;
  }

  get active() {
    return this.items.filter((i) => ['queued', 'hashing', 'uploading'].includes(i.state));
  }

  get failed() {
    return this.items.filter((i) => i.state === 'failed');
  }

  /** Bytes and rate over everything still moving. */
  get totals() {
    let done = 0;
    let size = 0;
    let rate = 0;
    for (const item of this.items) {
      if (!['queued', 'hashing', 'uploading', 'paused'].includes(item.state)) continue;
      const live = this.progress[item.id];
      // Between tries, what the service confirmed, not what was written before the line dropped.
      done += item.error ? item.bytesSent : (live?.bytesSent ?? item.bytesSent);
      size += item.sizeBytes;
      rate += item.state === 'uploading' ? (live?.bytesPerSecond ?? 0) : 0;
    }
    return { done, size, rate, eta: rate > 0 ? (size - done) / rate : null };
  }

  load = async (projectId: string) => {
    if (projectId !== this.projectId) this.notice = null;
    this.projectId = projectId;
    this.all = unwrap(await printdesk.uploads.list());
  };

  /** Files from a drop or a picker: every one is checked by the host; the good ones queue. */
  enqueueFiles = async (projectId: string, folderId: string | null, files: File[]) => {
    const staged = await Promise.all(files.map((file) => printdesk.pathForFile(file)));
    const paths = staged.filter(Boolean);
    // Named, not dropped in silence: a file too large to take in, or gone since it was picked.
    const unread = files.filter((_, i) => !staged[i]).map((file) => file.name);
    const unreadNote = unread.length ? `${unread.length === 1 ? `${unread[0]} could not be read` : `${unread.length} files could not be read (${unread.slice(0, 3).join(', ')}${unread.length > 3 ? ', …' : ''})`}.` : '';
    if (paths.length === 0) {
      this.notice = unreadNote || 'These files could not be read.';
      return;
    }
    await this.enqueuePaths(projectId, folderId, paths);
    if (unreadNote) this.addNotice(unreadNote);
    void thumbnailsInBackground(files.filter((_, i) => staged[i]));
  };

  enqueuePaths = async (projectId: string, folderId: string | null, paths: string[], acceptSpecBreaches = false) => {
    const result = unwrap(await printdesk.uploads.enqueue({ projectId, folderId, paths, ...(acceptSpecBreaches ? { acceptSpecBreaches } : {}) }));
    // Of this drop, said as such: the list below holds every drop's failures, and its count may be higher.
    const taken = result.added.length + result.alreadyQueued.length + result.rejected.length + result.held.length;
    const problems = !result.rejected.length ? '' : taken === 1 ? 'The file just added could not be uploaded (below).' : `${result.rejected.length.toLocaleString('en-US')} of the ${taken.toLocaleString('en-US')} files just added could not be uploaded (below).`;
    const news = [result.added.length ? `${result.added.length} added to the upload queue` : '', result.alreadyQueued.length ? `${result.alreadyQueued.length} already queued or uploaded` : '']
      .filter(Boolean)
      .join(', ');
    // The reply may come before or after the uploads' own events: what it says of them is taken only when
    // no event has told more, so that an upload missing from the list was cleared, not yet heard of.
    for (const item of result.added) if (!this.all.some((i) => i.id === item.id)) this.upsert(item);
    this.notice = null;
    if (news) this.addNotice(`${news}.`, result.added.length ? result.added.map((item) => item.id) : undefined);
    if (problems) this.addNotice(problems);
    this.dropSettledNotices();
    if (result.held.length) await this.askAboutHeld(projectId, folderId, result.held);
  };

  /**
   * 3MF files that break the specification wait for the user's word: the service may refuse them, but it
   * is a rule of the specification, not the service's, so the user may upload them anyway.
   */
  private askAboutHeld = async (projectId: string, folderId: string | null, held: EnqueueResult['held']) => {
    const one = held.length === 1;
    const reasons = held.map((file) => `${file.fileName}: ${file.message.replace(/^This 3MF breaks the 3MF specification: /, '')}`);
    const upload = await confirmation.ask({
      title: one ? 'Upload a 3MF that breaks the 3MF specification?' : `Upload ${held.length} 3MF files that break the 3MF specification?`,
      body: one ? `${held[0].fileName}: ${held[0].message}` : `The service may refuse them. ${reasons.join(' ')}`,
      confirmLabel: one ? 'Upload anyway' : 'Upload them anyway',
      cancelLabel: one ? 'Leave it out' : 'Leave them out',
      tone: 'primary',
    });
    if (upload) return this.enqueuePaths(projectId, folderId, held.map((file) => file.path), true);
    const names = one ? held[0].fileName : `${held.length} 3MF files`;
    this.addNotice(`${names} ${one ? 'was' : 'were'} left out: ${one ? 'it breaks' : 'they break'} the 3MF specification, and the service may refuse ${one ? 'it' : 'them'}. Export again from your modelling tool, or add ${one ? 'it' : 'them'} again and choose to upload anyway.`);
  };

  pause = async (id: string) => void unwrap(await printdesk.uploads.pause({ id }));
  resume = async (id: string) => void unwrap(await printdesk.uploads.resume({ id }));
  /** An upload waiting out its backoff goes now: paused and resumed, it keeps what the service has. */
  retryNow = async (id: string) => {
    await this.pause(id);
    await this.resume(id);
  };
  cancel = async (id: string) => void unwrap(await printdesk.uploads.cancel({ id }));
  retry = async (id: string) => void unwrap(await printdesk.uploads.retry({ id }));
  pauseAll = async () => void unwrap(await printdesk.uploads.pauseAll());
  resumeAll = async () => void unwrap(await printdesk.uploads.resumeAll());
  clearFinished = async () => {
    unwrap(await printdesk.uploads.clearFinished());
    this.notice = null;
  };
}

export const uploads = new UploadsStore();
