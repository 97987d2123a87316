// One attempt at sending a claimed draft, and what its answer makes of it: placed, queued again for later,
// held for the user, or rejected. The outbox (outbox.ts) decides when; this decides what.
import type { ApiClient } from '../api/client.ts';
import { retryDelayMs } from '../api/backoff.ts';
import { HostError, isUnreachable, mayHaveActed } from '../api/errors.ts';
import { inGroup } from '../../../common/errors.ts';
import { z } from 'zod';
import { CreatedOrder, type ServiceOrder } from '../api/schemas.ts';
import { differences } from './adopt.ts';
import { orderByReference, orderUnderReference, ownReference, payload } from './create-order.ts';
import { referenceTaken } from '../api/order-answers.ts';
import type { Draft, DraftFields, PlacedOrder, Problem, ShippingMethod } from '../../contract/schemas/orders.ts';
import type { Quotes } from './quotes.ts';
import { shippingAtSend } from './shipping-at-send.ts';
import { hasShipping } from '../../../common/orders/draft-rules.ts';
import type { OrdersStore, TransitionPatch } from './store.ts';

const RETRY_CAP_MS = 5 * 60_000;
const BATCH_QUOTE_MS = 60_000;

export interface SendOrderDeps {
  store: OrdersStore;
  client: () => ApiClient;
  quotes: Quotes;
  onChange: (draft: Draft) => void;
  onPlaced: (draft: Draft) => void;
  now: () => number;
  random: () => number;
  /** Attempts this process made of each draft (outbox.ts): its backoff counts these; forgotten once settled. */
  triesHere: Map<string, number>;
  /** Whether the store may be closed by now: late answers are then not written. */
  closed: () => boolean;
}

/**
 * Each transition is written before the step it announces; every attempt carries the draft's orderReference,
 * so a resend after an unknown outcome cannot create a second order, and an answer that the reference is taken
 * counts as placed once the order found under it matches the draft.
 */
export function orderSender(deps: SendOrderDeps): (draft: Draft) => Promise<void> {
  const { store, client, quotes, onChange, onPlaced, now, random, triesHere, closed } = deps;

  async function send(draft: Draft) {
    // Whether this attempt's CreateOrder went out: only its failures may have placed the order, and only
    // its answers settle an earlier attempt's lost one (not the quote check's or the look-up's).
    let sent = false;
    try {
      if (draft.unanswered) {
        // An earlier attempt's answer was lost: ask by reference before anything else, so that a draft the
        // service already holds is recorded as placed and never checked, held or changed as unsent.
        const existing = await lookUp(draft);
        if (existing) return await adopt(draft, existing);
        // Not found, or not askable: the same reference again settles it. The draft stays "unanswered", so
        // not editable, until the service answers this attempt. A price raised meanwhile (the earlier attempt
        // may have been days ago, or cut short by a crash before it went out) is still the user's to accept:
        // the order is held, locked, until they do. A method gone is sent anyway: the service's refusal is
        // a definite answer, which unlocks the draft for a new choice.
        const checked = await checkShipping(draft);
        if ('problem' in checked && checked.problem.kind === 'price-changed') return await settle(draft, 'needs-attention', { problem: checked.problem }, true);
        sent = true;
        return await create('draft' in checked ? checked.draft : draft);
      }
      const checked = await checkShipping(draft);
      if ('problem' in checked) return await settle(draft, 'needs-attention', { problem: checked.problem }, true);
      sent = true;
      await create(checked.draft);
    } catch (error) {
      await failed(draft, error, sent);
    }
  }

  /**
   * CreateOrder. Its answer is "not shown" in the spec: a success in a shape not understood still means
   * the order exists, so it is recorded as placed (its record asked for by reference) rather than sent
   * again as if it had failed.
   */
  async function create(draft: Draft) {
    const reply = await client().call('createOrder', z.unknown(), { body: payload(draft) });
    const created = CreatedOrder.safeParse(reply);
    if (created.success) return placed(draft, created.data);
    const found = await lookUp(draft).catch(() => null);
    await placed(draft, found ?? orderByReference(draft));
  }

  /**
   * A draft written days ago may carry a method or price the service no longer offers, and a rule is
   * resolved only now. The method it goes with is written down before it goes, so that a resend after a
   * lost answer carries the same one.
   */
  async function checkShipping(draft: Draft): Promise<{ problem: Problem } | { draft: Draft }> {
    if (!hasShipping(draft)) return { problem: { kind: 'invalid', message: 'Choose a shipping method' } };
    // A single order asks the service: a price raised since its quote minutes ago would be charged unseen.
    // A batch's thousands of orders share a quote for a minute, which the rate limit can afford.
    const maxAgeMs = draft.batch ? BATCH_QUOTE_MS : 0;
    const quote = await quotes.get({ country: draft.recipient.country, models: draft.models }, { maxAgeMs });
    const outcome = shippingAtSend(draft, quote.methods);
    if (!outcome.ok) return { problem: outcome.problem };
    return { draft: await goingWith(draft, outcome.method) };
  }

  /**
   * The draft with the method (and price) it is sent with, kept durably when that differs from what it held:
   * not for a new quote of the same method at the same price (its time, its delivery estimate), which a
   * resend does not carry and which would cost each of a batch's orders one write more.
   */
  async function goingWith(draft: Draft, method: ShippingMethod): Promise<Draft> {
    const held = draft.shippingMethod;
    if (held && held.shippingMethodId === method.shippingMethodId && held.price === method.price) return draft;
    const { recipient, models, shippingRule, orderContent } = draft;
    const fields: DraftFields = { recipient, models, shippingMethod: method, shippingRule, orderContent };
    return (await fromSending(draft, 'sending', { fields }, true)) ?? { ...draft, shippingMethod: method };
  }

  async function placed(draft: Draft, order: Omit<ServiceOrder, 'placedWith'>) {
    // Left "sending": the next start sends it again with its reference, and the service's answer that
    // the reference is taken records it as placed.
    if (closed()) return;
    const record: PlacedOrder = { orderId: order.orderId, status: order.status, createdAt: order.createdAt, shippingPrice: order.shippingPrice, currency: order.currency };
    const done = await fromSending(draft, 'placed', { placed: record, problem: null, unanswered: false }, true);
    if (done) {
      onChange(done);
      onPlaced(done);
    }
  }

  async function failed(draft: Draft, error: unknown, sent: boolean) {
    const code = error instanceof HostError ? error.code : 'INTERNAL_ERROR';
    const message = error instanceof Error ? error.message : String(error);
    if (sent && error instanceof HostError && referenceTaken(error)) return adoptExisting(draft, error);
    if (inGroup('transient', code)) return retryLater(draft, error, sent && mayHaveActed(error));
    // A definite refusal of this attempt's CreateOrder: no order was made by it, nor by an earlier one,
    // whose reference it carried. Not a refusal for access, which the service checks before the reference.
    const answered = sent && code !== 'NO_PERMISSION' ? { unanswered: false } : {};
    if (code === 'NO_PERMISSION') return settle(draft, 'needs-attention', { problem: { kind: 'no-access', message: 'This account no longer has access to the project. Ask the service operator.' } }, true);
    if (inGroup('signedOut', code)) {
      return settle(draft, 'needs-attention', { problem: { kind: 'session-expired', message: 'Your session expired before this order was sent. It is sent when you sign in again.' } }, true);
    }
    await settle(draft, 'rejected', { ...answered, problem: { kind: 'rejected', message } }, true);
  }

  /** The service's order with the draft's reference, or null when it has none or cannot be asked. */
  async function lookUp(draft: Draft): Promise<ServiceOrder | null> {
    return orderUnderReference(client(), draft);
  }

  /**
   * An order found under the draft's reference: the draft's own if it was placed with what the draft holds,
   * or if the reference is one PrintDesk made (what differs is then the service's own tidying of fields).
   */
  async function adopt(draft: Draft, order: ServiceOrder) {
    const differ = differences(order, draft);
    if (differ.length === 0 || ownReference(draft)) return placed(draft, order);
    const holder = `The service holds another order under the reference ${draft.orderReference} (order ${order.orderId}), with a different ${differ.join(', ')}.`;
    // An earlier attempt of this one may have reached the service too: not said to be unplaced, and kept locked.
    if (draft.unanswered) return settle(draft, 'needs-attention', { problem: { kind: 'invalid', message: `${holder} An earlier attempt of this order may also have reached the service: ask the service before sending it again.` } }, true);
    await settle(draft, 'needs-attention', { unanswered: false, problem: { kind: 'invalid', message: `${holder} This order was not placed: duplicate it to send it under a new reference.` } }, true);
  }

  /** The service says the reference is taken: an earlier attempt reached it, or another order has it. */
  async function adoptExisting(draft: Draft, original: HostError) {
    try {
      const order = await lookUp(draft);
      if (order) return adopt(draft, order);
    } catch (error) {
      if (error instanceof HostError && inGroup('transient', error.code)) return retryLater(draft, error, draft.unanswered);
    }
    // Not to be looked up. The draft's own reference, or one an earlier attempt of this draft sent: the
    // order holding it is this one, known by its reference until the service's list names it.
    if (ownReference(draft) || draft.unanswered) return placed(draft, orderByReference(draft));
    await settle(draft, 'needs-attention', { problem: { kind: 'invalid', message: `${original.message} The order holding it could not be looked up: ask the service, or duplicate this order to send it under a new reference.` } }, true);
  }

  async function retryLater(draft: Draft, error: unknown, unanswered = false) {
    const retryAfterSeconds = error instanceof HostError ? error.retryAfterSeconds : undefined;
    const delay = retryDelayMs(triesHere.get(draft.id) ?? 1, retryAfterSeconds, { capMs: RETRY_CAP_MS, random });
    const note = error instanceof Error ? error.message : String(error);
    await settle(draft, 'queued', { nextAttemptAt: now() + delay, askedToWait: retryAfterSeconds !== undefined, waitsForService: isUnreachable(error), note, ...(unanswered ? { unanswered } : {}) }, unanswered);
  }

  /** The draft this attempt sends changed, only while this process still holds that attempt (see heldAttempt). */
  const fromSending = (draft: Draft, to: Draft['state'], patch: TransitionPatch, durable: boolean) =>
    store.transition(draft.id, ['sending'], to, { ...patch, heldAttempt: draft.attempts }, durable);

  async function settle(draft: Draft, to: Draft['state'], patch: TransitionPatch, durable = false) {
    if (closed()) return;
    const next = await fromSending(draft, to, patch, durable);
    if (to !== 'queued') triesHere.delete(draft.id);
    if (next) onChange(next);
  }

  return send;
}
