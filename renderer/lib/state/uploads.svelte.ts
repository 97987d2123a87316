import type { UploadItem, UploadProgress } from '../../../electron/schemas/library.ts';
import { printdesk, unwrap } from '../bridge.ts';
import { thumbnailsInBackground } from '../../viewer/thumbnails.ts';

/** The upload queue as the host reports it, with throttled progress per file. */
class UploadsStore {
  /** Every upload of the signed-in account on this computer, whatever its project. */
  all = $state<UploadItem[]>([]);
  /** The project the library shows: the queue lists its uploads only (others go on unseen). */
  projectId = $state<string | null>(null);
  progress = $state<Record<string, UploadProgress>>({});
  notice = $state<string | null>(null);

  constructor() {
    printdesk.on('uploads:changed', (item) => {
      const index = this.all.findIndex((i) => i.id === item.id);
      if (index === -1) this.all = [...this.all, item];
      else this.all[index] = item;
    });
    printdesk.on('uploads:progress', (progress) => {
      this.progress[progress.id] = progress;
    });
    printdesk.on('uploads:removed', ({ ids }) => {
      this.all = this.all.filter((i) => !ids.includes(i.id));
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
    if (unreadNote) this.notice = `${this.notice} ${unreadNote}`;
    void thumbnailsInBackground(files.filter((_, i) => staged[i]));
  };

  enqueuePaths = async (projectId: string, folderId: string | null, paths: string[]) => {
    const result = unwrap(await printdesk.uploads.enqueue({ projectId, folderId, paths }));
    const parts = [`${result.added.length} added to the upload queue`];
    if (result.alreadyQueued.length) parts.push(`${result.alreadyQueued.length} already queued or uploaded`);
    if (result.rejected.length) parts.push(`${result.rejected.length} could not be uploaded`);
    this.notice = parts.join(', ') + '.';
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
