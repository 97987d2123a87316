// An order's history as its page tells it: each step in words, and where the order stands now at the end.
import type { Draft, OrderEvent } from '../../electron/contract/schemas/orders.ts';
import { batchLabel } from './order-table.ts';
import { formatWhen } from './format.ts';
import { statusWords } from './order-states.ts';

export interface TimelineStep {
  at: string | null;
  title: string;
  detail: string;
  tone: 'done' | 'ok' | 'warn' | 'danger' | 'now';
  /** who did it, on which workstation, where the store recorded it (a team's) */
  by?: string;
}

const OUTCOME: Record<NonNullable<OrderEvent['outcome']>, { words: string; tone: TimelineStep['tone'] }> = {
  placed: { words: 'accepted by the service', tone: 'ok' },
  rejected: { words: 'rejected by the service', tone: 'danger' },
  'needs-attention': { words: 'stopped: it needs your attention', tone: 'warn' },
  retry: { words: 'not sent, to be tried again', tone: 'warn' },
  interrupted: { words: 'cut short', tone: 'warn' },
};

/** The service's words as a sentence, so that what follows reads apart: "Rate limit exceeded; retry in 60 s." */
const sentence = (text: string) => (text && !/[.!?]$/.test(text.trim()) ? `${text.trim()}.` : text);

export function describeEvent(event: OrderEvent, draft: Draft, now = new Date()): TimelineStep {
  const detail = event.message ?? '';
  const at = event.at;
  switch (event.kind) {
    case 'drafted': {
      const from = draft.batch ? `From ${batchLabel(draft)}` : '';
      return { at, title: 'Drafted', detail: [from, detail].filter(Boolean).join('. '), tone: 'done' };
    }
    case 'edited':
      return { at, title: 'Taken back to be fixed', detail, tone: 'done' };
    case 'queued':
      return { at, title: 'Queued in the outbox', detail, tone: 'done' };
    case 'held':
      return { at, title: 'Held in the outbox', detail: detail || 'Not sent until released', tone: 'done' };
    case 'released':
      return { at, title: 'Released', detail, tone: 'done' };
    case 'unqueued':
      return { at, title: 'Taken out of the outbox, kept as a draft', detail, tone: 'done' };
    case 'attempt': {
      const outcome = OUTCOME[event.outcome ?? 'retry'];
      const next = event.nextAttemptAt ? `Next try ${formatWhen(event.nextAttemptAt, now)}.` : '';
      return { at, title: `Send attempt ${event.attempt ?? ''}: ${outcome.words}`.replace('  ', ' '), detail: [sentence(detail), next].filter(Boolean).join(' '), tone: outcome.tone };
    }
    case 'placed':
      return { at, title: 'Placed', detail: event.orderId ? `Service order ${event.orderId}` : `Known to the service by its reference ${draft.orderReference}`, tone: 'ok' };
    case 'moved':
      return { at, title: 'Moved to the team store', detail, tone: 'done' };
    case 'status': {
      const status = event.status ?? '';
      return { at, title: `Service status: ${statusWords(status)}`, detail: [event.previous ? `Was ${statusWords(event.previous).toLowerCase()}` : '', detail].filter(Boolean).join('. '), tone: status === 'cancelled' ? 'warn' : 'ok' };
    }
  }
}

/** Where the order stands now, when it is on its way somewhere (sending, waiting to be sent, held). */
export function currentStep(draft: Draft, online: boolean, now = new Date(), workingOffline = false): TimelineStep | null {
  if (draft.state === 'sending') return { at: null, title: `Send attempt ${draft.attempts} under way`, detail: '', tone: 'now' };
  if (draft.state !== 'queued') return null;
  if (draft.held) return { at: null, title: 'On hold in the outbox', detail: 'Release it to send it.', tone: 'now' };
  if (workingOffline) return { at: null, title: 'Held while you work offline', detail: 'It goes when you switch Work offline off.', tone: 'now' };
  if (!online) return { at: null, title: 'Waiting for the service', detail: 'It goes as soon as the service can be reached.', tone: 'now' };
  if (draft.nextAttemptAt && Date.parse(draft.nextAttemptAt) > now.getTime()) return { at: null, title: `Waiting to be sent ${formatWhen(draft.nextAttemptAt, now)}`, detail: '', tone: 'now' };
  return { at: null, title: 'Next in line to be sent', detail: '', tone: 'now' };
}

export function timelineSteps(events: readonly OrderEvent[], draft: Draft, online: boolean, now = new Date(), workingOffline = false): TimelineStep[] {
  // Who did each step is told once more than one person (or workstation) did any: alone at one computer, it
  // would say the same name on every line.
  const shared = new Set(events.map((event) => event.actor).filter(Boolean)).size > 1;
  const steps = events.map((event) => ({ ...describeEvent(event, draft, now), ...(shared && event.actor ? { by: event.actor } : {}) }));
  const current = currentStep(draft, online, now, workingOffline);
  return current ? [...steps, current] : steps;
}
