import type { ApiClient } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import { cancellable } from '../../../common/orders/cancellable.ts';
import { EDITABLE_STATES } from '../../../common/orders/draft-rules.ts';
import type { BulkResult, Draft, DraftFields, OrderEvent, QuoteRequest } from '../../contract/schemas/orders.ts';
import type { Db } from '../storage/database.ts';
import type { Sql } from '../storage/sql.ts';
import { sqliteSql } from '../storage/sqlite-sql.ts';
import { eachOrder } from './bulk.ts';
import { createOutbox, sendingHere } from './outbox.ts';
import { createQuotes } from './quotes.ts';
import { createSeenQuotes } from './seen-quotes.ts';
import { createSendReport } from './send-report.ts';
import type { EmptiedSummary } from '../../../common/orders/outbox-words.ts';
import { cancelOrder, checkStatus, refreshStatuses } from './statuses.ts';
import { holdSenderLock } from './sender-lock.ts';
import { createOrdersStore, type StoreIdentity } from './store.ts';
import { createUnsavedForms } from './unsaved-form.ts';
import { editConflict } from './edit-conflict.ts';
import { changeable, outboxActions } from './outbox-actions.ts';
import { listenForChangesElsewhere } from './changed-elsewhere.ts';

export interface OrdersDeps {
  /** this computer's database: the sender lock, forms left unsaved, the quotes seen */
  db: Db;
  /** where drafts and the outbox live: a team's store; by default this computer's database */
  store?: Sql;
  /** who writes: this computer, and the person at it (for an order's history) */
  identity?: StoreIdentity;
  client: () => ApiClient;
  /** `<service> <email>` of the signed-in user, or null */
  account: () => string | null;
  onDraft: (draft: Draft) => void;
  /** drafts deleted, here or on another workstation of the team */
  onRemoved?: (ids: string[]) => void;
  /** the team's store may have changed unheard (its listening connection came back): views read again */
  onReread?: () => void;
  onPlaced: (draft: Draft) => void;
  /** the outbox has sent all that waited for the service (see send-report.ts) */
  onOutboxEmptied?: (summary: EmptiedSummary) => void;
  now?: () => number;
}

/**
 * How often sends left by a program that stopped are looked for: every half lease, so that a workstation's
 * sends are another's within about one lease of its last renewal; not more often than a few times a second
 * (tests shorten the lease), nor less than once a minute.
 */
export const sweepEveryMs = (leaseMs: number) => Math.min(60_000, Math.max(250, Math.round(leaseMs / 2)));

const sameFields = (draft: Draft, fields: DraftFields) =>
  JSON.stringify([draft.recipient, draft.models, draft.shippingMethod, draft.shippingRule ?? null, draft.orderContent]) ===
  JSON.stringify([fields.recipient, fields.models, fields.shippingMethod, fields.shippingRule ?? null, fields.orderContent]);

export type Orders = Awaited<ReturnType<typeof createOrders>>;

/**
 * A new run (the app started, another store chosen, `printdesk batch` run again) backs off afresh: what an
 * earlier run left waiting for its next try is due now. Not a wait the service asked for with a Retry-After:
 * the order's page says when it goes, and sending it sooner only brings the 429 back ("Send now" still does).
 */
function startAfresh(sql: Sql): Promise<number> {
  return sql.run(`UPDATE drafts SET next_attempt_at = 0 WHERE state = 'queued' AND next_attempt_at > 0 AND asked_to_wait = 0`);
}

/** Quotes, drafts, the outbox and the address book, for the signed-in account. */
export async function createOrders(deps: OrdersDeps) {
  const shared = deps.store ?? sqliteSql(deps.db);
  const store = await createOrdersStore(shared, undefined, deps.identity);
  // Held while this process may send: other programs on the database tell from it whether its sends go on.
  const senders = holdSenderLock(deps.db);
  const unsavedForms = createUnsavedForms(deps.db);
  const seenQuotes = createSeenQuotes(deps.db);
  const quotes = createQuotes(deps.client, deps.now, {
    record: (at, request, quote) => void (deps.account() && seenQuotes.record(deps.account() as string, at, request, quote)),
    get: (at) => (deps.account() ? seenQuotes.get(deps.account() as string, at) : null),
    forCountry: (country) => (deps.account() ? seenQuotes.forCountry(deps.account() as string, country) : []),
  });
  const report = createSendReport({
    waiting: async () => (deps.account() ? store.countWaiting(deps.account() as string) : 0),
    report: (summary) => deps.onOutboxEmptied?.(summary),
  });
  /** Who hears of each draft this process changes, besides the view (the batches, for their progress). */
  const changedHere = new Set<(draft: Draft) => void>();
  const outbox = createOutbox({
    store,
    client: deps.client,
    quotes,
    account: deps.account,
    onChange: (draft) => {
      emit(draft);
      void report.sent(draft);
    },
    onPlaced: deps.onPlaced,
    now: deps.now,
  });

  let sweep: ReturnType<typeof setInterval> | null = null;
  let unlisten: (() => Promise<void>) | null = null;

  /**
   * Whether `sender` (a process as `store.sender` names it) is known to have stopped: one of this
   * workstation's that no longer runs. Another workstation's cannot be asked (its lease says).
   */
  function senderGone(sender: string): boolean {
    const at = sender.lastIndexOf(':');
    return at > 0 && sender.slice(0, at) === store.workstation && !senders.isAlive(Number(sender.slice(at + 1)));
  }

  function account(): string {
    const current = deps.account();
    if (!current) throw new HostError('NOT_SIGNED_IN', 'Sign in first');
    return current;
  }

  async function owned(id: string): Promise<Draft> {
    const draft = (await store.ownerOf(id)) === account() ? await store.get(id) : null;
    if (!draft) throw new HostError('INVALID_INPUT', 'No such draft');
    return draft;
  }

  /** Saves the form's fields; what the form held unsaved is then in the draft, and forgotten. */
  /** `version`: the draft's as the form opened it; a save over a newer one is refused, saying what changed. */
  async function save(projectId: string, fields: DraftFields, id?: string, version?: number): Promise<Draft> {
    const owner = account();
    const draft = id ? changeable(await owned(id)) : null;
    if (draft && version !== undefined && draft.version !== undefined && draft.version !== version) throw editConflict(draft, fields);
    const saved = draft ? await store.transition(draft.id, EDITABLE_STATES, 'draft', { fields, problem: null, version }) : await store.create(owner, projectId, fields);
    if (!saved && draft && version !== undefined) {
      const now = await store.get(draft.id);
      if (now && now.version !== version && (EDITABLE_STATES as readonly string[]).includes(now.state)) throw editConflict(now, fields);
    }
    // Forgotten once the draft holds it (a crash between the two recovers a form equal to its draft: nothing).
    unsavedForms.forget(owner);
    if (!saved) throw new HostError('INVALID_INPUT', `This order is ${draft?.state} and can no longer be edited`);
    return emit(saved);
  }

  /**
   * What a form held when the app last closed under it, as a draft: its own draft's fields replaced while
   * that draft can still be edited, or a new draft. Null when there was nothing, or nothing new.
   */
  async function recoverUnsaved(): Promise<Draft | null> {
    const owner = account();
    const form = unsavedForms.take(owner);
    if (!form) return null;
    const current = form.draftId && (await store.ownerOf(form.draftId)) === owner ? await store.get(form.draftId) : null;
    if (current && sameFields(current, form.fields)) return null;
    const updated = current && !current.unanswered ? await store.transition(current.id, EDITABLE_STATES, 'draft', { fields: form.fields, problem: null }) : null;
    return emit(updated ?? await store.create(owner, form.projectId, form.fields, undefined, 'Kept from an order form left unsaved'));
  }

  const { place, acceptChanges, unqueue, sendNow, hold, release } = outboxActions({ store, outbox, owned, emit, account });

  async function duplicate(id: string): Promise<Draft> {
    const source = await owned(id);
    const fields: DraftFields = { recipient: source.recipient, models: source.models, shippingMethod: source.shippingMethod, shippingRule: source.shippingRule ?? null, orderContent: source.orderContent };
    return emit(await store.create(account(), source.projectId, fields, undefined, `A copy of ${source.orderReference}`));
  }

  async function removeOne(id: string): Promise<Draft> {
    const draft = await owned(id);
    await remove(id);
    return draft;
  }

  /** The same action on each of several orders (the Orders table's selection). */
  const each = (act: (id: string) => Draft | Promise<Draft>) => (ids: readonly string[]): Promise<BulkResult> =>
    eachOrder(ids, act, async (id) => (await store.get(id))?.orderReference ?? id);

  async function remove(id: string): Promise<void> {
    if (!(await store.remove(changeable(await owned(id)).id, EDITABLE_STATES))) throw new HostError('INVALID_INPUT', 'Orders in the outbox or placed cannot be deleted');
    deps.onRemoved?.([id]);
  }

  /** After sign-in: orders held for an expired session go back in the queue. */
  async function resumeAfterSignIn() {
    const current = deps.account();
    if (!current) return;
    await store.requeueHeldForSession(current);
    await outbox.kick();
  }

  /**
   * Fetches the service's current status of the project's placed orders; resolves to the orders it changed
   * (each also announced), not the whole list: a project of ten thousand orders is not sent again for a few.
   */
  async function refresh(projectId: string): Promise<Draft[]> {
    const changed = await refreshStatuses(store, deps.client(), await store.list(account(), projectId), projectId);
    return changed.map(emit);
  }

  async function cancel(id: string): Promise<Draft> {
    const draft = await owned(id);
    if (draft.state !== 'placed') throw new HostError('INVALID_INPUT', 'Only placed orders can be cancelled; take a queued order back with “Keep as draft”');
    if (draft.order?.status === 'cancelled') return draft;
    if (!cancellable(draft)) throw new HostError('INVALID_INPUT', `This order is ${draft.order?.status.replaceAll('_', ' ')}: the service cancels orders only until they ship`);
    return emit(await cancelOrder(store, deps.client(), draft));
  }

  /** The service's current status of one placed order (its page asks when it opens). */
  async function check(id: string): Promise<Draft> {
    const draft = await owned(id);
    const updated = await checkStatus(store, deps.client(), draft);
    return updated === draft ? draft : emit(updated);
  }

  async function history(id: string): Promise<OrderEvent[]> {
    return store.history((await owned(id)).id);
  }

  function emit(draft: Draft): Draft {
    deps.onDraft(draft);
    for (const listener of changedHere) listener(draft);
    return draft;
  }

  return {
    store,
    outbox,
    /** "ada@shop.example on bench-2", or null (nobody signed in, or no one to name on this computer's store) */
    actor: () => deps.identity?.actor() ?? null,
    senderGone,
    /** Calls `listener` with each draft this process changes, until the returned function is called. */
    watchChanges: (listener: (draft: Draft) => void) => {
      changedHere.add(listener);
      return () => void changedHere.delete(listener);
    },
    /** The service's quote, now. */
    quote: (request: QuoteRequest) => quotes.get(request, { maxAgeMs: 0 }),
    /** For the user: the service's quote, or offline the last one seen for the same request, marked so. */
    quoteOrLastSeen: (request: QuoteRequest) => quotes.get(request, { maxAgeMs: 0, orLastSeen: true }),
    seenQuotes: (country: string) => quotes.seen(country),
    list: (projectId: string) => store.list(account(), projectId),
    /** What signing out leaves waiting: the account's orders still to be sent, across its projects, and whether a team's store (PostgreSQL, where this computer's is SQLite) holds them. */
    waiting: async (projectId: string | null) => ({ ...(await store.waitingOf(account(), projectId)), shared: shared.dialect === 'postgres' }),
    refresh,
    cancel,
    get: (id: string) => owned(id),
    save,
    keepUnsaved: (projectId: string, fields: DraftFields, id?: string) => unsavedForms.keep(account(), { projectId, draftId: id ?? null, fields }),
    forgetUnsaved: () => unsavedForms.forget(account()),
    recoverUnsaved,
    place,
    acceptChanges,
    unqueue,
    sendNow,
    duplicate,
    remove,
    hold,
    release,
    check,
    history,
    /** Each selected order: cancelled at the service, held, released, sent again, deleted. */
    bulk: {
      cancel: each(cancel),
      hold: each(hold),
      release: each(release),
      retry: each(place),
      remove: each(removeOne),
    },
    addressBook: () => store.recipients.list(account()),
    resumeAfterSignIn,
    /** The service answers again: send what waits now. */
    resumeAfterReconnect: async () => {
      void report.connectivity(true);
      await store.makeQueuedDue();
      void outbox.kick();
    },
    /** The service went away: what the outbox sends once it is back is told together (see send-report.ts). */
    wentOffline: () => report.connectivity(false),
    /** Work offline: the outbox holds what is queued (placing still queues), and sends it once let go. */
    workOffline: async (on: boolean) => {
      if (on) return outbox.pause();
      await store.makeQueuedDue();
      outbox.resume();
    },
    start: async () => {
      unlisten ??= await listenForChangesElsewhere(shared, {
        store,
        account: deps.account,
        onDraft: deps.onDraft,
        onRemoved: (ids) => deps.onRemoved?.(ids),
        onChange: () => void outbox.kick(),
        onMissed: () => deps.onReread?.(),
      });
      await store.requeueInterrupted(sendingHere, senders.isAlive);
      await startAfresh(shared);
      void outbox.kick();
      // Another program on this database (`printdesk batch`) may stop mid-send after this one started:
      // its sends are taken back once it is gone, not at this one's next start.
      // This process's own sends are left to their leases: one claimed a moment ago is not yet among those it
      // says it is sending, and would be sent twice. A start (above) has none under way.
      const ownUnderWay = { has: () => true };
      sweep ??= setInterval(() => void store.requeueInterrupted(ownUnderWay, senders.isAlive).then((taken) => void (taken > 0 && outbox.kick())), sweepEveryMs(store.leaseMs));
      sweep.unref?.();
    },
    stop: async () => {
      if (sweep) clearInterval(sweep);
      sweep = null;
      await unlisten?.().catch(() => undefined);
      unlisten = null;
      await outbox.stop();
      senders.release();
    },
  };
}
