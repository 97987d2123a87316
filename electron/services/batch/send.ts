// Send, from the review or the command line: every row checked again, then the valid orders queued. It is
// done under the batch's send claim (states.ts), so that two workstations (or the app and `printdesk batch`)
// sending one batch at once send it once: the second joins the first, helps send its queue and follows its
// progress, without an error and without a draft made twice.
import { isSendable } from '../../../common/batch/rows-to-orders.ts';
import { HostError } from '../api/errors.ts';
import type { Runner } from './runner.ts';
import type { BatchProgress } from './schemas.ts';
import { CLAIM_MS, type BatchStates } from './states.ts';
import type { BatchRecord, BatchTables } from './tables.ts';
import type { Validation } from './validate.ts';

export interface SendOptions {
  /** leave the orders with problems out (else a batch with some is refused, saying how many) */
  skipInvalid?: boolean;
}

export interface BatchSendDeps {
  tables: BatchTables;
  states: BatchStates;
  runner: Runner;
  /** whether a send claim's holder is known to have stopped */
  gone: (sender: string) => boolean;
  /** the batch's rows checked now (quotes as last fetched, or fresh) */
  validate: (batch: BatchRecord) => Promise<Validation>;
  /** the check's findings kept for the review */
  keep: (batch: BatchRecord, validation: Validation) => Promise<void>;
}

export function batchSend(deps: BatchSendDeps) {
  const { tables, states, runner } = deps;
  /** Batches this process is sending, from the moment it is asked (before the claim is written): no edit slips in. */
  const here = new Set<string>();

  async function send(batch: BatchRecord, options: SendOptions): Promise<BatchProgress> {
    // On its way already (sent here or elsewhere): this workstation follows it and helps send it.
    if (batch.state === 'sending' || batch.state === 'paused') return runner.join(batch, null);
    if (here.has(batch.id)) return runner.progress(batch);
    here.add(batch.id);
    try {
      if (!(await states.claim(batch, deps.gone))) return await runner.join((await tables.get(batch.id)) ?? batch, () => sendAgain(batch.id, options));
      return await claimed(batch, options);
    } finally {
      here.delete(batch.id);
    }
  }

  /** Checks and queues the batch under this process's claim, renewed meanwhile. */
  async function claimed(batch: BatchRecord, options: SendOptions): Promise<BatchProgress> {
    const renewing = setInterval(() => void states.renew(batch.id).catch(() => undefined), CLAIM_MS / 3);
    renewing.unref();
    try {
      return await checkAndQueue(batch, options);
    } finally {
      clearInterval(renewing);
      // Ended already when the batch was set sending; otherwise the others no longer wait for this process.
      await states.release(batch.id).catch(() => undefined);
    }
  }

  async function sendAgain(batchId: string, options: SendOptions): Promise<BatchProgress> {
    const batch = await tables.get(batchId);
    if (!batch) throw new HostError('INVALID_INPUT', 'No such batch');
    return send(batch, options);
  }

  async function checkAndQueue(batch: BatchRecord, options: SendOptions): Promise<BatchProgress> {
    const validation = await deps.validate(batch);
    await deps.keep(batch, validation);
    if (validation.unchecked) throw validation.unchecked;
    const { orders, errors } = validation;
    const rowsWithErrors = new Set(errors.filter((e) => e.kind === 'error').map((e) => e.row)).size;
    if (rowsWithErrors && !options.skipInvalid) {
      throw new HostError('INVALID_INPUT', `${rowsWithErrors} row${rowsWithErrors === 1 ? ' has' : 's have'} problems: fix them, or send the valid orders and leave these for later`, { details: { rowsWithErrors } });
    }
    const valid = orders.filter((o) => isSendable(o) && o.method);
    if (valid.length === 0) throw new HostError('INVALID_INPUT', 'This batch has no valid orders to send');
    return runner.send(batch, valid);
  }

  return { send, sendingHere: (batchId: string) => here.has(batchId) };
}
