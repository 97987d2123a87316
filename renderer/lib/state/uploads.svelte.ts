import type { UploadItem, UploadProgress } from '../../../electron/schemas/library.ts';
import { printdesk, unwrap } from '../bridge.ts';
import { thumbnailsInBackground } from '../../viewer/thumbnails.ts';

/** The upload queue as the host reports it, with throttled progress per file. */
class UploadsStore {
  items = $state<UploadItem[]>([]);
  progress = $state<Record<string, UploadProgress>>({});
  notice = $state<string | null>(null);

  constructor() {
    printdesk.on('uploads:changed', (item) => {
      const index = this.items.findIndex((i) => i.id === item.id);
      if (index === -1) this.items = [...this.items, item];
      else this.items[index] = item;
    });
    printdesk.on('uploads:progress', (progress) => {
      this.progress[progress.id] = progress;
    });
    printdesk.on('uploads:removed', ({ ids }) => {
      this.items = this.items.filter((i) => !ids.includes(i.id));
    });
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
      done += live?.bytesSent ?? item.bytesSent;
      size += item.sizeBytes;
      rate += item.state === 'uploading' ? (live?.bytesPerSecond ?? 0) : 0;
    }
    return { done, size, rate, eta: rate > 0 ? (size - done) / rate : null };
  }

  load = async () => {
    this.items = unwrap(await printdesk.uploads.list());
  };

  /** Files from a drop or a picker: every one is checked by the host; the good ones queue. */
  enqueueFiles = async (projectId: string, folderId: string | null, files: File[]) => {
    const paths = (await Promise.all(files.map((file) => printdesk.pathForFile(file)))).filter(Boolean);
    if (paths.length === 0) {
      this.notice = 'These files could not be read.';
      return;
    }
    await this.enqueuePaths(projectId, folderId, paths);
    void thumbnailsInBackground(files);
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
