import type { AppError } from '../../../electron/contract/channels.ts';
import type { BulkResult, Draft, DraftFields, DraftState, OrderEvent, Quote, QuoteRequest, Recipient } from '../../../electron/contract/schemas/orders.ts';
import { inGroup } from '../../../common/errors.ts';
import { untrack } from 'svelte';
import { asAppError, printdesk, unwrap } from '../bridge.ts';
import { warmRows } from '../order-table.ts';
import { library } from './library.svelte.ts';
import { nav } from './nav.svelte.ts';
import { modelNames } from './model-names.svelte.ts';
import { session } from './session.svelte.ts';

const nameOf = (recipient: Recipient) => [recipient.firstName, recipient.lastName].filter(Boolean).join(' ');

/**
 * What tells one version of an order from the next, cheaply: the time of its last change (to the second) and
 * what a change within that second would alter.
 */
const versionOf = (d: Draft) =>
  [d.updatedAt, d.state, d.held, d.unanswered, d.attempts, d.order?.status, d.order?.orderId, d.problem?.message, d.recipient.firstName, d.recipient.lastName, d.models.length, d.shippingMethod?.price].join('|');

/** How long announced changes wait to be applied together. */
const PENDING_MS = 60;

/** Drafts, the outbox and placed orders of the open project, kept current by the host's events. */
class OrdersStore {
  projectId = $state<string | null>(null);
  /**
   * Raw: a project may hold ten thousand orders, and a deep proxy would make every read of every field a
   * trap. A change replaces the array (and the changed order's object), which is what the views react to.
   */
  drafts = $state.raw<Draft[]>([]);
  loading = $state(false);
  error = $state<AppError | null>(null);
  recentlyPlaced = $state<Draft[]>([]);
  /** The order just placed while the service was out of reach: it waits in the Outbox, which the list says. */
  private waitingId = $state<string | null>(null);
  /** That order while it waits, still queued or being tried. */
  get waitingToSend(): Draft | undefined {
    return this.waitingId === null ? undefined : this.drafts.find((d) => d.id === this.waitingId && (d.state === 'queued' || d.state === 'sending'));
  }
  /** An order the form held unsaved when the user went elsewhere, saved as a draft on the way out. */
  keptDraft = $state<{ id: string; who: string } | null>(null);
  /** Drafts deleted since the page loaded (here, or on another workstation of the team): an order page open on one says so. */
  removed = $state.raw<ReadonlySet<string>>(new Set());

  /** Accounts whose unsaved form of an earlier run was asked for since this page loaded (see load). */
  private recoveredFor = new Set<string>();

  /** Each batch's last state seen, to reload when one changes (see the constructor). */
  private batchStates = new Map<string, string>();

  /** Changes the host announced, applied together (see applyPending). */
  private pending = new Map<string, Draft>();
  private pendingTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    // A batch sends many orders a second, each in several steps: the list takes them in one go every
    // PENDING_MS, rather than sorting ten thousand rows again for each.
    printdesk.on('drafts:changed', (draft) => {
      this.pending.set(draft.id, draft);
      this.pendingTimer ??= setTimeout(this.applyPending, PENDING_MS);
    });
    // Deleted here or on another workstation: gone from the list, including any change of it still waiting.
    printdesk.on('drafts:removed', ({ ids }) => {
      const gone = new Set(ids);
      ids.forEach((id) => this.pending.delete(id));
      this.removed = new Set([...this.removed, ...ids]);
      if (this.drafts.some((d) => gone.has(d.id))) this.drafts = this.drafts.filter((d) => !gone.has(d.id));
    });
    // The team's store may have changed unheard (its connection came back): the list is read again.
    printdesk.on('store:reread', () => {
      if (this.projectId) void this.reload(this.projectId);
    });
    // Nothing of one account's orders stays on screen for the next.
    printdesk.on('session:changed', (state) => {
      if (state.status === 'signed-in') return;
      this.recentlyPlaced = [];
      this.waitingId = null;
      this.keptDraft = null;
      this.drafts = [];
      this.projectId = null;
    });
    // A batch makes and cancels its drafts by the thousand, one event for all: the list is read again when
    // a batch starts, pauses, is cancelled or ends, rather than with every tick of its progress.
    printdesk.on('batch:progress', (progress) => {
      if (this.batchStates.get(progress.batchId) === progress.state) return;
      this.batchStates.set(progress.batchId, progress.state);
      if (this.projectId) void this.reload(this.projectId);
    });
    printdesk.on('orders:placed', (draft) => {
      if (draft.projectId !== this.projectId) return;
      this.recentlyPlaced = [...this.recentlyPlaced, draft];
    });
  }

  count = (state: DraftState) => this.drafts.filter((d) => d.state === state).length;

  load = async (projectId: string) => {
    // "An order was placed" belongs to the project (and the account) it was placed in.
    if (projectId !== this.projectId) {
      this.recentlyPlaced = [];
      this.waitingId = null;
      this.keptDraft = null;
    }
    this.projectId = projectId;
    this.loading = true;
    this.error = null;
    try {
      const recovered = await this.recoverUnsaved();
      this.takeList(unwrap(await printdesk.drafts.list({ projectId })));
      if (recovered?.projectId === projectId) this.keptDraft = { id: recovered.id, who: nameOf(recovered.recipient) };
      void this.refreshStatuses();
    } catch (error) {
      this.error = asAppError(error);
    } finally {
      this.loading = false;
    }
  };

  /**
   * The order a form held when the window closed, the page reloaded or the app stopped under it: made a
   * draft by the host, once per account and page load (a form left in this page is saved as it is left).
   */
  private recoverUnsaved = async (): Promise<Draft | null> => {
    // Untracked: load runs inside the workspace's effect, which must not load again whenever the session does.
    const account = untrack(() => session.current?.email);
    if (!account || this.recoveredFor.has(account)) return null;
    this.recoveredFor.add(account);
    try {
      return unwrap(await printdesk.drafts.recoverUnsaved());
    } catch {
      // Still kept by the host, and asked for again at the next load: the list must not wait on it.
      this.recoveredFor.delete(account);
      return null;
    }
  };

  /** The same list again, without the loading state or a status refresh: nothing on screen blinks. */
  private reload = async (projectId: string) => {
    try {
      const drafts = unwrap(await printdesk.drafts.list({ projectId }));
      if (projectId === this.projectId) this.takeList(drafts);
    } catch {
      // Offline or signed out: the events and the next load bring it up to date.
    }
  };

  /**
   * A whole list from the host: it holds every change announced before it (events and answers come in the
   * order they were sent), so those waiting to be applied are older and dropped.
   */
  private takeList = (drafts: Draft[]) => {
    this.pending.clear();
    // The orders that did not change keep their objects: the table keeps what it made of them.
    const known = new Map(this.drafts.map((d) => [d.id, d]));
    this.drafts = drafts.map((d) => {
      const before = known.get(d.id);
      return before && versionOf(before) === versionOf(d) ? before : d;
    });
    this.stopWarming();
    this.stopWarming = warmRows(this.drafts, modelNames.names);
  };
  private stopWarming = () => {};

  /** The host's announced changes, in the order they came. */
  private applyPending = () => {
    clearTimeout(this.pendingTimer);
    this.pendingTimer = undefined;
    if (this.pending.size === 0) return;
    const changes = [...this.pending.values()].filter((d) => d.projectId === this.projectId);
    this.pending.clear();
    if (changes.length === 0) return;
    const index = new Map(this.drafts.map((d, i) => [d.id, i]));
    const next = [...this.drafts];
    const added: Draft[] = [];
    for (const draft of changes) {
      const at = index.get(draft.id);
      if (at === undefined) added.unshift(draft);
      else next[at] = draft;
    }
    this.drafts = added.length ? [...added, ...next] : next;
  };

  /** An action's answer: newer than any change announced before it, which is applied first. */
  upsert = (draft: Draft) => {
    this.applyPending();
    if (draft.projectId !== this.projectId) return;
    const index = this.drafts.findIndex((d) => d.id === draft.id);
    if (index === -1) this.drafts = [draft, ...this.drafts];
    else this.drafts = this.drafts.with(index, draft);
  };

  byId = (id: string): Draft | undefined => this.drafts.find((d) => d.id === id);

  /** Saves a draft of the open project, or of `projectId` (a form left while switching projects). */
  /** `version`: the draft's as the form opened it, so that a save over someone else's is refused (EDIT_CONFLICT). */
  save = async (fields: DraftFields, id?: string, projectId = this.projectId, version?: number): Promise<Draft> => {
    if (!projectId) throw new Error('No project is open');
    const draft = unwrap(await printdesk.drafts.save({ projectId, id, fields, version }));
    if (draft.projectId === this.projectId) this.upsert(draft);
    return draft;
  };

  /**
   * Saves what a form held when the user left it, as mail clients keep a message being written: leaving
   * must not throw an order away. Resolves to the draft's id, or null when it could not be saved (the
   * caller keeps it otherwise). `announce` says whether to tell the user, asked once it is saved.
   */
  keepAsDraft = async (projectId: string, fields: DraftFields, id: string | undefined, announce: (draftId: string) => boolean): Promise<string | null> => {
    // The form's project, not the open one: leaving the form may be switching projects.
    const draft = await this.save(fields, id, projectId).catch(() => null);
    if (!draft || projectId !== this.projectId) return draft?.id ?? null;
    if (announce(draft.id)) this.keptDraft = { id: draft.id, who: nameOf(fields.recipient) };
    return draft.id;
  };

  /** Asks the service for the current status of placed orders; quietly keeps the last known offline. */
  refreshStatuses = async () => {
    if (!this.projectId || this.count('placed') === 0) return;
    try {
      const changed = unwrap(await printdesk.orders.refresh({ projectId: this.projectId }));
      changed.forEach((draft) => this.pending.set(draft.id, draft));
      this.applyPending();
    } catch (error) {
      const appError = asAppError(error);
      if (!inGroup('unreachable', appError.code)) this.error = appError;
    }
  };

  cancel = async (id: string) => this.upsert(unwrap(await printdesk.orders.cancel({ id })));
  check = async (id: string) => this.upsert(unwrap(await printdesk.orders.check({ id })));
  history = async (id: string): Promise<OrderEvent[]> => unwrap(await printdesk.orders.history({ id }));

  /** The same action on several orders; what it did is applied to the list, what it could not do is returned. */
  private bulk = async (ask: Promise<{ ok: true; value: BulkResult } | { ok: false; error: AppError }>): Promise<BulkResult> => {
    const result = unwrap(await ask);
    result.done.forEach(this.upsert);
    return result;
  };
  cancelMany = (ids: string[]) => this.bulk(printdesk.orders.cancelMany({ ids }));
  holdMany = (ids: string[]) => this.bulk(printdesk.outbox.hold({ ids }));
  releaseMany = (ids: string[]) => this.bulk(printdesk.outbox.release({ ids }));
  retryMany = (ids: string[]) => this.bulk(printdesk.outbox.retry({ ids }));
  removeMany = async (ids: string[]): Promise<BulkResult> => {
    const result = unwrap(await printdesk.drafts.deleteMany({ ids }));
    const gone = new Set(result.done.map((d) => d.id));
    this.applyPending();
    this.drafts = this.drafts.filter((d) => !gone.has(d.id));
    return result;
  };

  place = async (id: string) => this.upsert(unwrap(await printdesk.outbox.place({ id })));
  /** Placed from the form while the service is out of reach: said above the list until it is sent. */
  placeWhileOffline = async (id: string) => {
    await this.place(id);
    this.waitingId = id;
  };
  /**
   * Place, from the list: an order with fields that need attention opens in its form, which names them and
   * takes the focus to the first, rather than a notice above the list that says "some fields".
   */
  placeOrShowWhy = async (id: string) => {
    const reply = await printdesk.outbox.place({ id });
    if (!reply.ok && reply.error.details?.fields) return nav.openOrderForm({ draftId: id, check: true });
    this.upsert(unwrap(reply));
  };
  acceptChanges = async (id: string) => this.upsert(unwrap(await printdesk.outbox.acceptChanges({ id })));
  unqueue = async (id: string) => this.upsert(unwrap(await printdesk.outbox.unqueue({ id })));
  sendNow = async (id: string) => this.upsert(unwrap(await printdesk.outbox.sendNow({ id })));
  duplicate = async (id: string): Promise<Draft> => {
    const copy = unwrap(await printdesk.drafts.duplicate({ id }));
    this.upsert(copy);
    return copy;
  };

  remove = async (id: string) => {
    unwrap(await printdesk.drafts.delete({ id }));
    this.drafts = this.drafts.filter((d) => d.id !== id);
  };

  dismissPlaced = () => {
    this.recentlyPlaced = [];
    this.waitingId = null;
  };
}

export const orders = new OrdersStore();

export async function fetchQuote(request: QuoteRequest): Promise<Quote> {
  const reply = await printdesk.quotes.get(request);
  if (!reply.ok && reply.error.code === 'NO_PERMISSION') library.recheckAccess(library.projectId);
  return unwrap(reply);
}

export async function fetchAddressBook(): Promise<Recipient[]> {
  return unwrap(await printdesk.drafts.addressBook());
}
