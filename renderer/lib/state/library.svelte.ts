import { SvelteSet } from 'svelte/reactivity';
import type { AppError } from '../../../electron/contract.ts';
import type { Folder, Model } from '../../../electron/schemas/library.ts';
import { asAppError, printdesk, unwrap } from '../bridge.ts';

export type FolderFilter = { kind: 'all' } | { kind: 'unfiled' } | { kind: 'folder'; folderId: string };
export type SortKey = 'name' | 'createdAt' | 'sizeBytes';

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
  error = $state<AppError | null>(null);
  openModelId = $state<string | null>(null);

  constructor() {
    printdesk.on('library:changed', ({ projectId }) => {
      if (projectId === this.projectId) void this.load();
    });
  }

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
    }
    await this.load();
  };

  load = async () => {
    const projectId = this.projectId;
    if (!projectId) return;
    this.loading = true;
    try {
      const folderId = this.filter.kind === 'all' ? undefined : this.filter.kind === 'unfiled' ? null : this.filter.folderId;
      const [folders, page] = await Promise.all([
        printdesk.library.folders({ projectId }),
        printdesk.library.models({ projectId, folderId, search: this.search || undefined, sort: this.sort, order: this.order, pageSize: 200 }),
      ]);
      this.folders = unwrap(folders);
      const models = unwrap(page);
      this.models = models.models;
      this.total = models.total;
      this.asOf = models.asOf ?? null;
      // Only what is listed stays selected: a model a search hides must not be moved or deleted unseen.
      const listed = new Set(models.models.map((m) => m.modelId));
      for (const modelId of [...this.selected]) if (!listed.has(modelId)) this.selected.delete(modelId);
      this.error = null;
    } catch (error) {
      this.error = asAppError(error);
    } finally {
      this.loading = false;
    }
  };

  show = (filter: FolderFilter) => {
    this.filter = filter;
    this.selected.clear();
    void this.load();
  };

  sortBy = (key: SortKey) => {
    if (this.sort === key) this.order = this.order === 'asc' ? 'desc' : 'asc';
    else {
      this.sort = key;
      this.order = key === 'name' ? 'asc' : 'desc';
    }
    void this.load();
  };

  toggle = (modelId: string) => {
    if (this.selected.has(modelId)) this.selected.delete(modelId);
    else this.selected.add(modelId);
  };

  selectAll = (on: boolean) => {
    this.selected.clear();
    if (on) for (const model of this.models) this.selected.add(model.modelId);
  };

  selectedModels = () => this.models.filter((m) => this.selected.has(m.modelId));

  createFolder = async (name: string) => {
    if (!this.projectId) return;
    const parentFolderId = this.filter.kind === 'folder' ? this.filter.folderId : null;
    unwrap(await printdesk.library.createFolder({ projectId: this.projectId, name, parentFolderId }));
    await this.load();
  };

  renameFolder = async (folderId: string, name: string) => {
    unwrap(await printdesk.library.renameFolder({ folderId, name }));
    await this.load();
  };

  deleteFolder = async (folderId: string) => {
    if (!this.projectId) return;
    unwrap(await printdesk.library.deleteFolder({ projectId: this.projectId, folderId }));
    this.filter = { kind: 'all' };
    await this.load();
  };

  moveSelected = async (folderId: string | null) => {
    for (const modelId of [...this.selected]) unwrap(await printdesk.library.moveModel({ modelId, folderId }));
    this.selected.clear();
    await this.load();
  };

  deleteSelected = async () => {
    const projectId = this.projectId;
    if (!projectId) return;
    for (const modelId of [...this.selected]) unwrap(await printdesk.library.deleteModel({ projectId, modelId }));
    this.selected.clear();
    await this.load();
  };
}

export const library = new LibraryStore();
