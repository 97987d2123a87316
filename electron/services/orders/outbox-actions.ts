// What the user does to an order in the outbox, one at a time or over a selection: place it, accept the
// service's new price, take it back, send it now, hold and release it. Each answers with the draft as it is
// once the outbox has looked again (the kick may have moved it on, and said so in an event).
import { HostError } from '../api/errors.ts';
import { validateModelLines, validateRecipient } from '../../../common/orders/validation.ts';
import { EDITABLE_STATES, hasShipping } from '../../../common/orders/draft-rules.ts';
import type { Draft, DraftFields } from '../../contract/schemas/orders.ts';
import { plainMoney } from '../../../common/batch/costs.ts';
import type { Outbox } from './outbox.ts';
import { DEFAULT_CURRENCY } from './quotes.ts';
import type { OrdersStore } from './store.ts';

/** A price as the order's history writes it (a note is a sentence), in its quotes' currency (the service shows none: euro). */
const amount = (cents: number | undefined) => (cents === undefined ? '?' : plainMoney(cents, DEFAULT_CURRENCY));

const MAYBE_PLACED = 'PrintDesk sent this order and its answer was lost, so the service may have placed it. It stays in the outbox until the service says whether it did (as soon as it can be reached).';

/** A draft whose last attempt may have been acted on cannot change here: it may already be an order. */
export function changeable(draft: Draft): Draft {
  if (draft.unanswered) throw new HostError('INVALID_INPUT', MAYBE_PLACED);
  return draft;
}

export interface OutboxActionsDeps {
  store: OrdersStore;
  outbox: Outbox;
  /** the signed-in account's draft, or an error */
  owned: (id: string) => Promise<Draft>;
  /** tells the views (and whoever watches this process's changes) of the draft */
  emit: (draft: Draft) => Draft;
  /** the signed-in account, or an error */
  account: () => string;
}

export function outboxActions({ store, outbox, owned, emit, account }: OutboxActionsDeps) {
  async function place(id: string): Promise<Draft> {
    const draft = await owned(id);
    const errors = { ...validateRecipient(draft.recipient), ...validateModelLines(draft.models) };
    const rule = draft.shippingRule?.choice;
    if (!hasShipping(draft)) errors.shippingMethod = 'Choose a shipping method, or a rule the outbox applies when it sends the order';
    else if (!draft.shippingMethod && rule?.kind === 'code' && (!rule.carrier.trim() || !rule.method.trim())) errors.shippingMethod = 'Give both the carrier and the method code';
    if (Object.keys(errors).length) {
      throw new HostError('INVALID_INPUT', 'Some fields need attention before this order can be placed', { details: { fields: errors } });
    }
    const queued = await store.transition(id, EDITABLE_STATES, 'queued', { problem: null, nextAttemptAt: 0 }, true);
    if (!queued) throw new HostError('INVALID_INPUT', `This order is already ${draft.state}`);
    await store.recipients.remember(account(), draft.recipient);
    emit(queued);
    await outbox.kick();
    return latest(queued);
  }

  /** The user agrees to the service's new price for a draft that went stale. */
  async function acceptChanges(id: string): Promise<Draft> {
    const draft = await owned(id);
    const after = draft.problem?.kind === 'price-changed' ? draft.problem.after : null;
    if (draft.state !== 'needs-attention' || !after) throw new HostError('INVALID_INPUT', 'There is no change to accept');
    // The method at this price, agreed to: a rule it came from has done its work.
    const fields: DraftFields = { recipient: draft.recipient, models: draft.models, shippingMethod: after, shippingRule: null, orderContent: draft.orderContent };
    const note = `New shipping price accepted: ${amount(draft.shippingMethod?.price)} → ${amount(after.price)}`;
    const queued = await store.transition(id, ['needs-attention'], 'queued', { fields, problem: null, nextAttemptAt: 0, note }, true);
    if (!queued) throw new HostError('INVALID_INPUT', 'This order changed meanwhile');
    emit(queued);
    await outbox.kick();
    return latest(queued);
  }

  /** Takes a queued order back out of the outbox before it is sent. */
  async function unqueue(id: string): Promise<Draft> {
    const back = await store.transition(changeable(await owned(id)).id, ['queued', 'needs-attention'], 'draft', { problem: null });
    if (!back) throw new HostError('INVALID_INPUT', 'This order is being sent or was placed; it can no longer be kept as a draft');
    return emit(back);
  }

  /**
   * A queued order waiting for its next try goes now, as a mail client's "Send now": the wait was
   * PrintDesk's backoff or the service's Retry-After, and the user may know better (or want to see the
   * answer). A 429 answers it with a new wait; the reference keeps it from being placed twice.
   */
  async function sendNow(id: string): Promise<Draft> {
    const due = await store.transition((await owned(id)).id, ['queued'], 'queued', { nextAttemptAt: 0 });
    if (!due) throw new HostError('INVALID_INPUT', 'This order is no longer waiting in the outbox');
    void outbox.kick();
    return emit(due);
  }

  /** Holds a queued order in the outbox: it stays there, unsent, until released. */
  async function hold(id: string): Promise<Draft> {
    const held = await store.transition(changeable(await owned(id)).id, ['queued'], 'queued', { held: true });
    if (!held) throw new HostError('INVALID_INPUT', 'Only orders waiting in the outbox can be held; this one is being sent or was placed');
    return emit(held);
  }

  async function release(id: string): Promise<Draft> {
    const draft = await owned(id);
    if (!draft.held) throw new HostError('INVALID_INPUT', 'This order is not held');
    const released = await store.transition(id, ['queued'], 'queued', { held: false });
    if (!released) throw new HostError('INVALID_INPUT', 'This order is no longer in the outbox');
    emit(released);
    await outbox.kick();
    return latest(released);
  }

  /**
   * The draft as it is now: the kick may already have moved it on (and said so in an event), and a reply
   * carrying the state before would undo that in the view.
   */
  async function latest(draft: Draft): Promise<Draft> {
    return (await store.get(draft.id)) ?? draft;
  }

  return { place, acceptChanges, unqueue, sendNow, hold, release };
}
