// THE list of channels between the renderer and the host. Main's ipcMain handlers, the preload,
// the browser-mode bridge and the renderer's types are all derived from this file; a channel that
// is not declared here does not exist.
import { z } from 'zod';
import { BatchChecking, BatchCosts, BatchError, BatchProgress, BatchReportRow, BatchRow, BatchRowsPage, BatchSku, BatchSummary, ColumnMapping, FieldConstants, LayoutName, NotOpen, ShippingChoice } from '../services/batch/schemas.ts';
import { PROBLEM_KINDS } from '../../common/batch/problems.ts';
import { EnqueueResult, Folder, Model, ModelPage, ModelPicture, ModelQuery, UploadItem, UploadProgress } from './schemas/library.ts';
import { BulkResult, Draft, DraftFields, Guid, OrderEvent, Quote, QuoteRequest, Recipient, SeenQuote } from './schemas/orders.ts';
import { Settings, SettingsPatch } from './schemas/preferences.ts';
import { ConnectionTest, MoveReport, StoreChoiceInput, TeamConnectionInput, TeamState } from './schemas/team.ts';

export { ERROR_CODES, ErrorCode } from './schemas/errors.ts';
export { AppErrorSchema, AppInfo, Connectivity, OfflineReason, OutboxEmptied, OutboxWaiting, Project, ProjectSelection, ServiceSetting, SessionState, VaultState } from './schemas/app.ts';
export type { AppError, ConnectivityState, Result } from './schemas/app.ts';
import { AppInfo, Connectivity, OutboxEmptied, OutboxWaiting, Project, ProjectSelection, ServiceSetting, SessionState, VaultState } from './schemas/app.ts';

const Nothing = z.undefined().or(z.null()).optional();

const DraftId = z.object({ id: z.string().min(1).max(64) });
/** The orders an action over a selection acts on: at most a project's worth. */
const DraftIds = z.object({ ids: z.array(z.string().min(1).max(64)).min(1).max(100_000) });
const DraftSave = z.object({ projectId: Guid, id: z.string().max(64).optional(), fields: DraftFields, version: z.number().int().nonnegative().optional() });
const UploadRef = z.object({ id: z.string().min(1).max(64) });
const ProjectRef = z.object({ projectId: Guid });
const BatchId = z.string().min(1).max(64);
const BatchRef = z.object({ batchId: BatchId });
/** A batch file's bytes; its size is checked where it is read (batch-file.ts), with the error the user sees. */
const FileBytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, "Expected the file's bytes");
const Name = z.string().trim().min(1, 'Enter a name').max(100);

interface ChannelDef<I extends z.ZodType, O extends z.ZodType> {
  input: I;
  output: O;
}
const channel = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O): ChannelDef<I, O> => ({ input, output });

export const contract = {
  app: {
    info: channel(Nothing, AppInfo),
    dismissVaultNotice: channel(Nothing, VaultState),
  },
  settings: {
    setService: channel(ServiceSetting, AppInfo.shape.service),
    get: channel(Nothing, Settings),
    /** changes the settings given; Work offline takes effect at once (the outbox held, no calls made) */
    update: channel(SettingsPatch, Settings),
  },
  /** Settings → Team: where drafts live (this computer, or a team's PostgreSQL) */
  team: {
    get: channel(Nothing, TeamState),
    /** one connection to the server: who it is and whether PrintDesk can keep its store there; nothing is written */
    test: channel(TeamConnectionInput, ConnectionTest),
    /** saves the choice and restarts the services on that store (the page reloads after it) */
    use: channel(StoreChoiceInput, TeamState),
    /** copies the signed-in account's work on this computer into the team store the form names, or the one in use */
    moveLocalWork: channel(z.object({ target: TeamConnectionInput.optional() }), MoveReport),
  },
  session: {
    get: channel(Nothing, SessionState),
    signIn: channel(z.object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) }), SessionState),
    signOut: channel(Nothing, SessionState),
  },
  projects: {
    list: channel(Nothing, z.array(Project)),
    current: channel(Nothing, ProjectSelection),
    select: channel(z.object({ projectId: Guid }), ProjectSelection),
  },
  connectivity: {
    get: channel(Nothing, Connectivity),
  },
  library: {
    folders: channel(ProjectRef, z.array(Folder)),
    createFolder: channel(z.object({ projectId: Guid, name: Name, parentFolderId: Guid.nullable().optional() }), Folder),
    renameFolder: channel(z.object({ folderId: Guid, name: Name }), Folder),
    deleteFolder: channel(z.object({ projectId: Guid, folderId: Guid }), z.null()),
    models: channel(ModelQuery, ModelPage),
    model: channel(z.object({ modelId: Guid }), Model),
    renameModel: channel(z.object({ modelId: Guid, name: Name }), Model),
    moveModel: channel(z.object({ modelId: Guid, folderId: Guid.nullable() }), Model),
    deleteModel: channel(z.object({ projectId: Guid, modelId: Guid }), z.null()),
    /** the model's bytes when this computer uploaded it and still has the file (for the preview) */
    modelFile: channel(z.object({ modelId: Guid }), z.object({ name: z.string(), bytes: z.instanceof(Uint8Array), source: z.enum(['local', 'service']) }).nullable()),
    /** a large model's first picture, ahead of its file: null for a small model or a file not on this computer yet */
    modelPicture: channel(z.object({ modelId: Guid }), ModelPicture.nullable()),
  },
  uploads: {
    enqueue: channel(z.object({ projectId: Guid, folderId: Guid.nullable().optional(), paths: z.array(z.string().min(1).max(4096)).min(1).max(10_000), allowDuplicate: z.boolean().optional(), acceptSpecBreaches: z.boolean().optional() }), EnqueueResult),
    list: channel(Nothing, z.array(UploadItem)),
    pause: channel(UploadRef, UploadItem),
    resume: channel(UploadRef, UploadItem),
    cancel: channel(UploadRef, UploadItem),
    retry: channel(UploadRef, UploadItem),
    pauseAll: channel(Nothing, z.null()),
    resumeAll: channel(Nothing, z.null()),
    clearFinished: channel(Nothing, z.null()),
  },
  batch: {
    list: channel(ProjectRef, z.array(BatchSummary)),
    /** the file by path (see pathForFile): it may be tens of megabytes, too much to pass as a message */
    import: channel(z.object({ projectId: Guid, path: z.string().min(1).max(4096), fileName: z.string().max(500).optional(), mapping: ColumnMapping.optional(), shipping: ShippingChoice.optional(), layout: LayoutName.optional() }), BatchSummary),
    reimport: channel(z.object({ batchId: BatchId, path: z.string().min(1).max(4096), fileName: z.string().max(500).optional() }), BatchSummary),
    get: channel(BatchRef, BatchSummary),
    rows: channel(z.object({ batchId: BatchId, offset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(1000).optional(), errorsOnly: z.boolean().optional() }), BatchRowsPage),
    setMapping: channel(z.object({ batchId: BatchId, mapping: ColumnMapping }), BatchSummary),
    setShipping: channel(z.object({ batchId: BatchId, shipping: ShippingChoice }), BatchSummary),
    /** values for every row that has none (kept for the file's layout), and orders taken though not open */
    setOptions: channel(z.object({ batchId: BatchId, constants: FieldConstants.optional(), include: z.array(NotOpen).max(10).optional() }), BatchSummary),
    /** the SKUs the batch names, with the model each prints */
    skus: channel(BatchRef, z.array(BatchSku)),
    /** a SKU's model (or "not a print") for the whole project; neither forgets it */
    setSku: channel(z.object({ batchId: BatchId, sku: z.string().trim().min(1).max(200), modelId: Guid.nullable(), skip: z.boolean() }), BatchSummary),
    exportSkus: channel(BatchRef, z.object({ csv: z.string() })),
    importSkus: channel(z.object({ batchId: BatchId, path: z.string().min(1).max(4096) }), z.object({ summary: BatchSummary, imported: z.number() })),
    updateCell: channel(z.object({ batchId: BatchId, row: z.number().int().min(1), column: z.number().int().min(0), value: z.string().max(1000) }), z.object({ summary: BatchSummary, rows: z.array(BatchRow) })),
    /** what sending now would place and cost (by method, by country) and when it would arrive: Send's confirmation */
    costs: channel(BatchRef, BatchCosts),
    send: channel(z.object({ batchId: BatchId, skipInvalid: z.boolean().optional() }), BatchProgress),
    progress: channel(BatchRef, BatchProgress),
    pause: channel(BatchRef, BatchProgress),
    resume: channel(BatchRef, BatchProgress),
    cancel: channel(BatchRef, BatchProgress),
    report: channel(BatchRef, z.array(BatchReportRow)),
    reportCsv: channel(BatchRef, z.object({ csv: z.string() })),
    // The command line's (`printdesk batch`): it holds the file's bytes, read from any path it was given.
    /** the project's batch of exactly these bytes, for a run of the same file that resumes it */
    findByFile: channel(z.object({ projectId: Guid, bytes: FileBytes }), BatchSummary.nullable()),
    importBytes: channel(z.object({ projectId: Guid, bytes: FileBytes, fileName: z.string().min(1).max(500), shipping: ShippingChoice.optional(), layout: LayoutName.optional(), constants: FieldConstants.optional(), include: z.array(NotOpen).max(10).optional() }), BatchSummary),
    /** a SKU map added to the project's SKU table before any batch of it exists */
    importProjectSkus: channel(z.object({ projectId: Guid, bytes: FileBytes }), z.object({ imported: z.number() })),
    /** the batch's problems, of the kinds asked for or all */
    errors: channel(z.object({ batchId: BatchId, kinds: z.array(z.enum(PROBLEM_KINDS)).max(PROBLEM_KINDS.length).optional() }), z.array(BatchError)),
    /** answers once the batch is no longer sending (done, cancelled), with its progress then */
    settled: channel(BatchRef, BatchProgress),
  },
  files: {
    /** the system's file dialog (desktop only: browser mode answers null and the page uses its own picker) */
    pick: channel(z.object({ folders: z.boolean().optional() }), z.array(z.string()).nullable()),
    /**
     * the model files the OS handed over (see the `files:opened` event) and not yet taken: the host keeps
     * them until a signed-in window with a project open takes them, then forgets them
     */
    takeOpened: channel(Nothing, z.array(z.string())),
  },
  quotes: {
    get: channel(QuoteRequest, Quote),
    /** the quotes last seen for a country, newest first, each with what it was for (offline, they are all there is) */
    seen: channel(z.object({ country: z.string().max(60) }), z.array(SeenQuote)),
  },
  drafts: {
    list: channel(z.object({ projectId: Guid }), z.array(Draft)),
    get: channel(DraftId, Draft),
    save: channel(DraftSave, Draft),
    /** the order form's fields as they are typed, kept by the host until the form is saved or left */
    keepUnsaved: channel(DraftSave, z.null()),
    forgetUnsaved: channel(Nothing, z.null()),
    /** what a form held when the app last closed under it, made a draft (once), or null */
    recoverUnsaved: channel(Nothing, Draft.nullable()),
    duplicate: channel(DraftId, Draft),
    delete: channel(DraftId, z.null()),
    deleteMany: channel(DraftIds, BulkResult),
    addressBook: channel(Nothing, z.array(Recipient)),
  },
  orders: {
    /** the service's current status of the project's placed orders: the orders whose status changed */
    refresh: channel(z.object({ projectId: Guid }), z.array(Draft)),
    cancel: channel(DraftId, Draft),
    cancelMany: channel(DraftIds, BulkResult),
    /** the service's current status of one placed order */
    check: channel(DraftId, Draft),
    /** what happened to the order, oldest first: drafted, queued, each send attempt, placed, the service's statuses */
    history: channel(DraftId, z.array(OrderEvent)),
  },
  outbox: {
    place: channel(DraftId, Draft),
    acceptChanges: channel(DraftId, Draft),
    unqueue: channel(DraftId, Draft),
    sendNow: channel(DraftId, Draft),
    /** queued orders held in the outbox, unsent, until released */
    hold: channel(DraftIds, BulkResult),
    release: channel(DraftIds, BulkResult),
    /** rejected orders sent again as they are */
    retry: channel(DraftIds, BulkResult),
    /** the account's orders still to be sent (queued, held or on their way): in all its projects, in how many, in the open one, and whether in a team's store */
    waiting: channel(z.object({ projectId: Guid.nullable() }), OutboxWaiting),
  },
} as const;

/**
 * Not a channel of the page's API: the preload alone sends it, with the path Electron gives for a File the
 * user dropped or picked in the window, so that the page may name that file (see path-grants.ts). The page
 * cannot send it, having no ipcRenderer.
 */
export const GRANT_PATH_CHANNEL = 'printdesk:grantPath';
export const GrantedPath = z.string().min(1).max(4096);

/** Events pushed from the host to the renderer. */
export const events = {
  'session:changed': SessionState,
  'connectivity:changed': Connectivity,
  'drafts:changed': Draft,
  /** drafts deleted, here or on another workstation of the team: gone from every list */
  'drafts:removed': z.object({ ids: z.array(z.string()) }),
  /**
   * the team's store may have changed unheard (the connection it tells of changes by came back): the lists
   * and the batch on screen are read again
   */
  'store:reread': z.object({}),
  'orders:placed': Draft,
  'outbox:emptied': OutboxEmptied,
  'uploads:changed': UploadItem,
  'uploads:progress': UploadProgress,
  'uploads:removed': z.object({ ids: z.array(z.string()) }),
  'library:changed': ProjectRef,
  /** model files were handed to the app by the OS (command line, "Open with", a second launch): take them */
  'files:opened': z.object({ count: z.number().int().min(1) }),
  'batch:progress': BatchProgress,
  /** a batch not on its way was changed on another workstation of the team (its rows, matching, options): read it again */
  'batch:edited': BatchRef,
  /** a batch's shipping being checked: quotes asked at the service's pace, how many, and how long to go */
  'batch:checking': BatchChecking,
} as const;

export type Contract = typeof contract;
export type Namespace = keyof Contract;
export type ChannelName = { [N in Namespace]: `${N}:${keyof Contract[N] & string}` }[Namespace];
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

type Def<C extends ChannelName> = C extends `${infer N extends Namespace}:${infer M}`
  ? M extends keyof Contract[N]
    ? Contract[N][M]
    : never
  : never;
export type ChannelInput<C extends ChannelName> = Def<C> extends ChannelDef<infer I, z.ZodType> ? z.input<I> : never;
export type ChannelOutput<C extends ChannelName> = Def<C> extends ChannelDef<z.ZodType, infer O> ? z.output<O> : never;
/** What a handler receives: the input after the contract's parsing. */
export type ChannelParsedInput<C extends ChannelName> = Def<C> extends ChannelDef<infer I, z.ZodType> ? z.output<I> : never;

/** Every channel name, in declaration order: the list main registers and the preload exposes. */
export const channelNames: ChannelName[] = Object.entries(contract).flatMap(([ns, defs]) =>
  Object.keys(defs).map((m) => `${ns}:${m}` as ChannelName),
);
export const eventNames = Object.keys(events) as EventName[];

export function channelDef(name: string): ChannelDef<z.ZodType, z.ZodType> | undefined {
  const [ns, method] = name.split(':');
  if (!Object.hasOwn(contract, ns)) return undefined;
  const defs = (contract as Record<string, Record<string, ChannelDef<z.ZodType, z.ZodType>>>)[ns];
  return Object.hasOwn(defs, method) ? defs[method] : undefined;
}
