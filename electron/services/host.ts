import { EventEmitter } from 'node:events';
import type { AppInfo, EventName, EventPayload, OfflineReason, Result, ServiceSetting } from '../contract/channels.ts';
import { createApiClient, type ApiClient } from './api/client.ts';
import { HostError } from './api/errors.ts';
import { inGroup } from '../../common/errors.ts';
import { isModelFile } from '../../common/model-files.ts';
import { send } from './api/transport.ts';
import { dispatch, type Handlers } from './dispatch.ts';
import { createBatches, type Batches } from './batch/index.ts';
import { modelNameLookup } from './batch/model-names.ts';
import { batchHandlers } from './handlers/batch.ts';
import { libraryHandlers, type FileDialog } from './handlers/library.ts';
import { orderHandlers } from './handlers/orders.ts';
import { serviceHandler, settingsHandlers } from './handlers/settings.ts';
import { teamHandlers } from './handlers/team.ts';
import { emptiedWords } from '../../common/orders/outbox-words.ts';
import { PathGrants } from './path-grants.ts';
import { SANDBOX_SERVICE_KEY } from './paths.ts';
import { createLibrary } from './library/index.ts';
import { createProjects } from './library/projects.ts';
import { createOrders, type Orders } from './orders/index.ts';
import { createConnectivity } from './session/connectivity.ts';
import { accountKey, createSession } from './session/session.ts';
import type { TokenVault } from './session/token-vault.ts';
import type { Db } from './storage/database.ts';
import type { Sql } from './storage/sql.ts';
import { sqliteSql } from './storage/sqlite-sql.ts';
import { identityOf, workstationOf } from './storage/workstation.ts';
import type { StoreSwitch } from './team/store-switch.ts';
import { createPreferences, type KeyValueStore } from './storage/preferences.ts';

export interface EmbeddedSandbox {
  baseUrl: string;
  demoAccount: { email: string; password: string };
  /** false once it has stopped: the app then says so, rather than that the service cannot be reached */
  running?: () => boolean;
}

/** What the OS offers that the host may use; absent in tests and the CLI. */
export interface Notifier {
  notify(title: string, body: string): void;
}

export interface HostDeps {
  mode: AppInfo['mode'];
  version: string;
  platform: string;
  store: KeyValueStore;
  vault: TokenVault;
  /** this computer's database: uploads, the models last listed, quotes seen, forms left unsaved */
  db: Db;
  /** where drafts and the outbox live: by default this computer's database (docs/storage.md) */
  sharedStore?: Sql & { readonly where?: string };
  /** Settings → Team: the connection's test, the switch to another store (boot.ts); absent, it is not offered */
  team?: StoreSwitch;
  /** why the team store saved in Settings is not the one in use (it could not be opened at start) */
  storeProblem?: string | null;
  sandbox: EmbeddedSandbox | null;
  notifier?: Notifier;
  /** the system's file dialog, where there is one */
  dialog?: FileDialog;
  /** where models downloaded for previews are kept */
  modelCacheDir?: string;
  timeoutMs?: number;
  /** ends every request on its way at once (the CLI's Ctrl+C): an order's reference settles it next time */
  signal?: AbortSignal;
  /** false: the upload queue is not started (the CLI places orders and leaves the app's uploads to it) */
  uploads?: boolean;
  /** how long a send this workstation claims stays its own unrenewed (orders/store.ts's LEASE_MS; tests shorten it) */
  leaseMs?: number;
}

export interface Host {
  invoke(channel: string, input: unknown): Promise<Result<unknown>>;
  subscribe<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /** resolves once a saved session has been picked up */
  ready: Promise<void>;
  /** model files the OS handed over (command line, "Open with"): kept until a page with a project open takes them */
  openFiles(paths: string[]): void;
  /** Lets the page name these files and what lies in these folders: the user handed them over (see path-grants.ts). */
  grantPaths(paths: string[]): void;
  /** The files every account's upload items read, signed in or not: staged copies of these must stay. */
  uploadPathsInUse(): string[];
  /** Stops sending and waits for what is on its way (see the outbox's stop) before the store may close. */
  dispose(): Promise<void>;
}

/** Files handed over by the OS that wait to be offered; a folder's worth selected in a file manager is fewer. */
const MAX_OPENED_FILES = 1000;

/** Builds every service and the handler for every contract channel. Knows nothing of Electron. */
export function createHost(deps: HostDeps): Host {
  const prefs = createPreferences(deps.store);
  const emitter = new EventEmitter();
  const emit = <E extends EventName>(event: E, payload: EventPayload<E>) => emitter.emit(event, payload);
  const clients = new Map<string, ApiClient>();
  /** Work offline: no call leaves for the service, and the outbox holds what is queued. */
  let workingOffline = prefs.settings().workOffline;
  const workOfflineError = () =>
    new HostError('OFFLINE', 'PrintDesk makes no calls to the service while you work offline.', { details: { ambiguous: false, reason: 'working-offline' } });
  /** The embedded sandbox is the service chosen, and it is not running (it stopped, or never started). */
  const sandboxStopped = () => prefs.service().kind === 'sandbox' && (deps.sandbox === null || deps.sandbox.running?.() === false);
  const offlineReason = (): OfflineReason => (workingOffline ? 'working-offline' : sandboxStopped() ? 'sandbox-stopped' : 'unreachable');

  function serviceBaseUrl(setting: ServiceSetting = prefs.service()): string | null {
    if (setting.kind === 'custom') return setting.baseUrl;
    return deps.sandbox?.baseUrl ?? null;
  }

  function client(): ApiClient {
    const baseUrl = serviceBaseUrl();
    if (!baseUrl) throw new HostError('OFFLINE', 'The embedded sandbox is not running. Choose a service in Settings.');
    let existing = clients.get(baseUrl);
    if (!existing) {
      const serviceKey = prefs.service().kind === 'sandbox' ? SANDBOX_SERVICE_KEY : baseUrl;
      existing = createApiClient({
        baseUrl, serviceKey, tokens: session.tokens, timeoutMs: deps.timeoutMs, signal: deps.signal, onReachability: connectivity.report,
        gate: () => (workingOffline ? workOfflineError() : null),
      });
      clients.set(baseUrl, existing);
    }
    return existing;
  }

  const connectivity = createConnectivity({
    // Any HTTP answer, even a 401, means the service is there.
    probe: async () => {
      const baseUrl = serviceBaseUrl();
      if (!baseUrl) return false;
      return send({ method: 'GET', url: `${baseUrl}/Project/GetProjects`, headers: {}, timeoutMs: 5_000 }).then(() => true, () => false);
    },
    whyUnreachable: () => (sandboxStopped() ? 'sandbox-stopped' : 'unreachable'),
    onChange: (state) => {
      emit('connectivity:changed', state);
      // The services are built once the store is open; a change before that has nothing to tell them.
      void servicesReady.then(() => (state.online ? orders.resumeAfterReconnect() : orders.wentOffline()));
    },
  });

  const session = createSession({
    vault: deps.vault,
    client,
    onChange: (state) => {
      emit('session:changed', state);
      if (state.status === 'signed-in') {
        void servicesReady.then(() => orders.resumeAfterSignIn());
        startLibrary();
      } else library.suspend();
    },
  });
  const projects = createProjects({ client, prefs, signedInEmail: session.requireSignedIn });
  const account = () => (serviceBaseUrl() ? accountKey(session.state(), client().serviceKey) : null);
  // Drafts and the outbox are built once their store is open and brought up to date (asynchronously: it
  // may be a team's PostgreSQL); the batches build on them. Every handler runs after that (`ready`).
  let orders!: Orders;
  let batches!: Batches;
  const workstation = workstationOf(deps.db);
  const identity = identityOf(workstation, () => session.state());
  const buildOrders = () => createOrders({
    db: deps.db,
    identity: { ...identity, leaseMs: deps.leaseMs },
    store: deps.sharedStore ?? sqliteSql(deps.db),
    client,
    account,
    onDraft: (draft) => emit('drafts:changed', draft),
    onRemoved: (ids) => emit('drafts:removed', { ids }),
    onReread: () => emit('store:reread', {}),
    onPlaced: (draft) => emit('orders:placed', draft),
    // Said once, for all that waited: the page says it in browser mode, the OS on the desktop.
    onOutboxEmptied: (summary) => {
      emit('outbox:emptied', summary);
      if (!prefs.settings().notifications) return;
      const { title, body } = emptiedWords(summary);
      deps.notifier?.notify(title, body);
    },
  });

  const library = createLibrary({
    client,
    account,
    tokens: session.tokens,
    db: deps.db,
    modelCacheDir: deps.modelCacheDir,
    held: () => workingOffline,
    onEvent: (event) => {
      if (event.type === 'upload:changed') emit('uploads:changed', event.item);
      else if (event.type === 'upload:progress') emit('uploads:progress', event);
      else if (event.type === 'upload:removed') emit('uploads:removed', { ids: event.ids });
      else emit('library:changed', { projectId: event.projectId });
    },
  });

  const startLibrary = () => deps.uploads !== false && library.start();

  const buildBatches = () => createBatches({
    orders,
    client,
    account,
    resolveModelName: modelNameLookup((query) => library.models.list(query)),
    onProgress: (progress) => emit('batch:progress', progress),
    onChecking: (checking) => emit('batch:checking', checking),
    onEdited: (batchId) => emit('batch:edited', { batchId }),
  });

  const servicesReady = (async () => {
    orders = await buildOrders();
    batches = await buildBatches();
  })();

  const serviceInfo = (): AppInfo['service'] => ({
    setting: prefs.service(),
    baseUrl: serviceBaseUrl(),
    sandboxRunning: deps.sandbox !== null && deps.sandbox.running?.() !== false,
  });

  /** Work offline on or off: the outbox, the uploads and the connectivity probe follow at once. */
  function workOffline(on: boolean) {
    if (on === workingOffline) return;
    workingOffline = on;
    void orders.workOffline(on);
    connectivity.hold(on);
    if (on) library.suspend();
    else if (session.state().status === 'signed-in') startLibrary();
  }

  const vaultState = () => ({ persistent: deps.vault.persistent, reason: deps.vault.reason, noticeDismissed: prefs.vaultNoticeDismissed() });

  // Files the OS handed over wait here, not in the page: one opened while signed out, or before the window
  // has loaded, is offered once a project is open instead of being lost.
  const openedFiles: string[] = [];
  const grants = new PathGrants();

  const handlers = (): Handlers => ({
    'app:info': () => ({
      version: deps.version,
      mode: deps.mode,
      platform: deps.platform,
      service: serviceInfo(),
      demoAccount: prefs.service().kind === 'sandbox' ? (deps.sandbox?.demoAccount ?? null) : null,
      vault: vaultState(),
      store: deps.sharedStore ? { kind: 'team', where: deps.sharedStore.where ?? null } : { kind: 'local', where: null, problem: deps.storeProblem ?? null },
    }),
    'app:dismissVaultNotice': () => {
      prefs.dismissVaultNotice();
      return vaultState();
    },
    ...serviceHandler({ prefs, baseUrlOf: serviceBaseUrl, signOut: session.signOut, forgetProjects: projects.forget, info: serviceInfo }),
    ...settingsHandlers(prefs, (settings) => workOffline(settings.workOffline)),
    'session:get': () => session.state(),
    'session:signIn': ({ email, password }) => session.signIn(email, password),
    'session:signOut': () => session.signOut(),
    'projects:list': () => projects.list(),
    'projects:current': () => projects.current(),
    'projects:select': ({ projectId }) => projects.select(projectId),
    'files:takeOpened': () => openedFiles.splice(0),
    ...orderHandlers(orders, connectivity),
    ...libraryHandlers(library, deps.dialog, grants),
    ...batchHandlers(batches, grants),
    ...teamHandlers({
      team: deps.team, db: deps.db, identity, account, localOrders: () => (deps.sharedStore ? null : orders), workingOffline: () => workingOffline, onDraft: (draft) => emit('drafts:changed', draft),
    }),
  });

  let channels: Handlers | null = null;
  const ready = servicesReady.then(async () => {
    channels = handlers();
    const state = await session.restore();
    // Held before anything is sent: the user chose to work offline when the app last ran.
    if (workingOffline) {
      await orders.workOffline(true);
      connectivity.hold(true);
    }
    // The batches first: a paused batch's orders are held before the outbox sends anything.
    await batches.start();
    await orders.start();
    if (state.status === 'signed-in') startLibrary();
  });

  return {
    async invoke(channel, input) {
      await ready;
      return withOfflineReason(await dispatch(channels as Handlers, channel, input), offlineReason);
    },
    subscribe(event, listener) {
      emitter.on(event, listener);
      return () => void emitter.off(event, listener);
    },
    ready,
    grantPaths: (paths) => grants.grant(paths),
    uploadPathsInUse: () => library.uploads.pathsInUse(),
    openFiles(paths) {
      const models = paths.filter((path) => isModelFile(path) && !openedFiles.includes(path));
      if (models.length === 0) return;
      const kept = models.slice(0, Math.max(0, MAX_OPENED_FILES - openedFiles.length));
      openedFiles.push(...kept);
      grants.grant(kept);
      emit('files:opened', { count: openedFiles.length });
    },
    async dispose() {
      connectivity.stop();
      await servicesReady;
      // The batches first: an enqueue under way ends its chunk, then the outbox's requests are answered.
      await batches.stop();
      await Promise.all([orders.stop(), library.close()]);
    },
  };
}

/** An answer that the service could not be reached says why: the user works offline, the sandbox stopped, or it does not answer. */
function withOfflineReason(result: Result<unknown>, reason: () => OfflineReason): Result<unknown> {
  if (result.ok || !inGroup('unreachable', result.error.code)) return result;
  if (result.error.details?.reason) return result;
  return { ok: false, error: { ...result.error, details: { ...result.error.details, reason: reason() } } };
}
