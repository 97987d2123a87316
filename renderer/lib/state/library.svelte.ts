import { SvelteSet } from 'svelte/reactivity';
import type { AppError, Result } from '../../../electron/contract/channels.ts';
import type { Folder, Model, ModelPage } from '../../../electron/contract/schemas/library.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';
import { coalesced } from '../../../common/coalesce.ts';
import { appendNew } from '../listing.ts';

export type FolderFilter = { kind: 'all' } | { kind: 'unfiled' } | { kind: 'folder'; folderId: string };
export type SortKey = 'name' | 'createdAt' | 'sizeBytes';

/** models asked for at a time: the service's largest page */
const PAGE_SIZE = 200;
/** least time between two listings made because the project changed */
const CHANGE_GAP_MS = 2_000;

/** The open project's folders and models, with the view's filter, sort and selection. */
class LibraryStore {
  projectId = $state<string | null>(null);
  folders = $state<Folder[]>([]);
  models = $state<Model[]>([]);
  total = $state(0);
  filter = $state<FolderFilter>({ kind: 'all' });
  search = $state('');
  sort = $state<SortKey>('createdAt');
  order = $state<'asc' | 'desc'>('desc');
  readonly selected = new SvelteSet<string>();
  /** set offline: the models shown are those last listed, at this time */
  asOf = $state<string | null>(null);
  loading = $state(false);
  loadingMore = $state(false);
  /** counts new listings (folder, search, sort), so the view can go back to the top */
  listing = $state(0);
  /** how many pages of the listing are shown */
  private pages = 1;
  /** the latest listing asked for: answers to earlier ones (a search typed over) are dropped */
  private run = 0;
  /**
   * The project changed (an upload finished, a model moved): listed again at once, then at most every
   * CHANGE_GAP_MS. A folder of 500 files finishes an upload every few hundred milliseconds, and each listing
   * asks for every page shown: without a gap that alone would run into the service's rate limit.
   */
  private changed = coalesced(() => void this.load(), CHANGE_GAP_MS);
  error = $state<AppError | null>(null);
  /** what the last move or delete did, for the view to confirm; gone once the user does something else */
  news = $state<string | null>(null);
  /** what a move or deletion stopped part-way did and left, beside the error that stopped it */
  stopped = $state<string | null>(null);
  /** a move or deletion of several models under way */
  busy = $state<{ verb: string; done: number; total: number } | null>(null);
  openModelId = $state<string | null>(null);

  constructor() {
    printdesk.on('library:changed', ({ projectId }) => {
      if (projectId === this.projectId) this.changed();
    });
    // Back online, a list that was answered from what was last seen, or not at all, is asked for again.
    printdesk.on('connectivity:changed', ({ online }) => {
      if (online && (this.asOf || this.error)) void this.load();
    });
    // An upload or an order refused for want of access (the service's 403 may also mean one resource):
    // listing the project again tells whether the whole project was taken away, and if so says it here.
    printdesk.on('uploads:changed', (item) => {
      if (item.error?.code === 'NO_PERMISSION') this.recheckAccess(item.projectId);
    });
    printdesk.on('drafts:changed', (draft) => {
      if (draft.problem?.kind === 'no-access') this.recheckAccess(draft.projectId);
    });
  }

  /** After a refusal elsewhere (a quote, an upload, an order) in `projectId`: list it again, once at a time. */
  recheckAccess = (projectId: string | null) => {
    if (projectId === this.projectId && !this.loading && this.error?.code !== 'NO_PERMISSION') void this.load();
  };

  open = async (projectId: string) => {
    if (this.projectId !== projectId) {
      this.projectId = projectId;
      this.filter = { kind: 'all' };
      this.selected.clear();
      // Another project's models must not stand in for this one's while it loads, or if it cannot.
      this.models = [];
      this.folders = [];
      this.total = 0;
      this.asOf = null;
      this.error = null;
      this.news = null;
      this.stopped = null;
      this.pages = 1;
    }
    await this.load();
  };

  load = async () => {
    const projectId = this.projectId;
    if (!projectId) return;
    const run = ++this.run;
    this.loading = true;
    try {
      const [folders, pages] = await Promise.all([printdesk.library.folders({ projectId }), this.fetchPages(projectId, 1, this.pages)]);
      if (run !== this.run) return;
      this.folders = unwrap(folders);
      this.present(pages, false);
      // Only what is listed stays selected: a model a search hides must not be moved or deleted unseen.
      const listed = new Set(this.models.map((m) => m.modelId));
      for (const modelId of [...this.selected]) if (!listed.has(modelId)) this.selected.delete(modelId);
      this.error = null;
    } catch (error) {
      if (run !== this.run) return;
      this.error = asAppError(error);
      // Access taken away while the project was open: its models are no longer this user's to see or act on.
      if (this.error.code === 'NO_PERMISSION') {
        this.models = [];
        this.folders = [];
        this.selected.clear();
      }
    } finally {
      if (run === this.run) this.loading = false;
    }
  };

  /** The next page of the same listing, below those shown. */
  loadMore = async () => {
    const projectId = this.projectId;
    if (!projectId || this.loading || this.loadingMore || !this.hasMore) return;
    const run = this.run;
    this.loadingMore = true;
    try {
      const pages = await this.fetchPages(projectId, this.pages + 1, this.pages + 1);
      if (run !== this.run) return;
      this.pages += 1;
      this.present(pages, true);
    } catch (error) {
      if (run === this.run) this.error = asAppError(error);
    } finally {
      this.loadingMore = false;
    }
  };

  get hasMore(): boolean {
    return this.models.length < this.total;
  }

  /** Pages `from` to `to` of the current listing, in order. */
  private async fetchPages(projectId: string, from: number, to: number): Promise<ModelPage[]> {
    const folderId = this.filter.kind === 'all' ? undefined : this.filter.kind === 'unfiled' ? null : this.filter.folderId;
    const pages: ModelPage[] = [];
    for (let page = from; page <= to; page++) {
      const next = unwrap(await printdesk.library.models({ projectId, folderId, search: this.search || undefined, sort: this.sort, order: this.order, page, pageSize: PAGE_SIZE }));
      pages.push(next);
      if (next.models.length < PAGE_SIZE) break;
    }
    return pages;
  }

  private present(pages: ModelPage[], append: boolean) {
    this.models = appendNew(append ? this.models : [], pages.flatMap((page) => page.models));
    const last = pages.at(-1);
    this.total = last ? Math.max(last.total, this.models.length) : this.models.length;
    this.asOf = last?.asOf ?? null;
  }

  /** A new listing (another folder, search or sort) starts again from its first page. */
  relist = () => {
    this.pages = 1;
    // Another listing (a folder, a search, a sort): the last move's or delete's news was of the one before.
    this.news = null;
    this.listing += 1;
    void this.load();
  };

  show = (filter: FolderFilter) => {
    this.filter = filter;
    this.selected.clear();
    this.relist();
  };

  sortBy = (key: SortKey) => {
    if (this.sort === key) this.order = this.order === 'asc' ? 'desc' : 'asc';
    else {
      this.sort = key;
      this.order = key === 'name' ? 'asc' : 'desc';
    }
    this.relist();
  };

  toggle = (modelId: string) => {
    if (this.selected.has(modelId)) this.selected.delete(modelId);
    else this.selected.add(modelId);
  };

  /** Sets every model listed from `fromId` to `toId` (either order) to `on`: a shift-click's range. */
  selectRange = (fromId: string, toId: string, on: boolean) => {
    const ids = this.models.map((m) => m.modelId);
    const [a, b] = [ids.indexOf(fromId), ids.indexOf(toId)].sort((x, y) => x - y);
    if (a < 0) return;
    for (const modelId of ids.slice(a, b + 1)) {
      if (on) this.selected.add(modelId);
      else this.selected.delete(modelId);
    }
  };

  /** Loads every page of the listing, then selects it whole: a move or an order of the entire folder. */
  selectEntireListing = async () => {
    while (this.hasMore) {
      const shown = this.models.length;
      await this.loadMore();
      if (this.models.length === shown) break;
    }
    this.selectAll(true);
  };

  selectAll = (on: boolean) => {
    this.selected.clear();
    if (on) for (const model of this.models) this.selected.add(model.modelId);
  };

  selectedModels = () => this.models.filter((m) => this.selected.has(m.modelId));

  /** Makes a folder in the one shown (or at the top); resolves to its id. */
  createFolder = async (name: string): Promise<string | null> => {
    if (!this.projectId) return null;
    const parentFolderId = this.filter.kind === 'folder' ? this.filter.folderId : null;
    const folder = unwrap(await printdesk.library.createFolder({ projectId: this.projectId, name, parentFolderId }));
    await this.load();
    return folder.folderId;
  };

  renameFolder = async (folderId: string, name: string) => {
    unwrap(await printdesk.library.renameFolder({ folderId, name }));
    // "Moved to “Old name”" would name a folder that no longer is.
    this.news = null;
    await this.load();
  };

  deleteFolder = async (folderId: string) => {
    if (!this.projectId) return;
    unwrap(await printdesk.library.deleteFolder({ projectId: this.projectId, folderId }));
    this.news = null;
    this.filter = { kind: 'all' };
    this.pages = 1;
    await this.load();
  };

  moveSelected = (folderId: string | null) => this.moveModels([...this.selected], folderId);

  /** Moves models (null: out of any folder), then says where they went. */
  moveModels = async (modelIds: readonly string[], folderId: string | null) => {
    this.news = null;
    await this.eachModel(['Moving', 'moved'], modelIds, (modelId) => printdesk.library.moveModel({ modelId, folderId }));
    const folder = folderId === null ? null : this.folders.find((f) => f.folderId === folderId);
    const what = modelIds.length === 1 ? '1 model' : `${modelIds.length} models`;
    this.news = folderId === null ? `${what} taken out of ${modelIds.length === 1 ? 'its folder' : 'their folders'}.` : `${what} moved to “${folder?.name ?? 'the folder'}”.`;
  };

  deleteSelected = async () => {
    const projectId = this.projectId;
    const modelIds = [...this.selected];
    if (!projectId || modelIds.length === 0) return;
    this.news = null;
    await this.eachModel(['Deleting', 'deleted'], modelIds, (modelId) => printdesk.library.deleteModel({ projectId, modelId }));
    this.news = `${modelIds.length === 1 ? '1 model' : `${modelIds.length.toLocaleString('en-US')} models`} deleted.`;
  };

  /**
   * One request per model, in order, counted in `busy`. The first failure stops the rest, which stay
   * selected: the user sees what was not done and can try again with one click.
   */
  private async eachModel([verb, past]: [string, string], modelIds: readonly string[], act: (modelId: string) => Promise<Result<unknown>>) {
    this.busy = { verb, done: 0, total: modelIds.length };
    this.stopped = null;
    let done = 0;
    try {
      for (const modelId of modelIds) {
        unwrap(await act(modelId));
        this.selected.delete(modelId);
        this.busy.done = ++done;
      }
    } catch (error) {
      const left = modelIds.length - done;
      if (modelIds.length > 1) this.stopped = `Stopped after ${done} of ${modelIds.length}: the ${left === 1 ? 'model' : `${left} models`} not ${past} ${left === 1 ? 'is' : 'are'} still selected, to try again.`;
      throw error;
    } finally {
      this.busy = null;
      await this.load();
    }
  }
}

export const library = new LibraryStore();
