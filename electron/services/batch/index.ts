// Batch ordering in the host: import a CSV into a batch, fix it in place, validate it against
// the order form's rules and live quotes, send it through the outbox, and report what happened.
import { createHash } from 'node:crypto';
import { layoutKey, type FieldConstants } from '../../../common/batch/mapping.ts';
import type { CsvRecord } from '../../../common/batch/parse-csv.ts';
import { platformById } from '../../../common/batch/platforms/index.ts';
import type { NotOpen } from '../../../common/batch/platforms/types.ts';
import type { ProblemKind } from '../../../common/batch/rows-to-orders.ts';
import { reportCsv } from '../../../common/batch/report.ts';
import { withReferences as referenced } from '../../../common/batch/references.ts';
import type { ApiClient } from '../api/client.ts';
import { HostError } from '../api/errors.ts';
import type { Orders } from '../orders/index.ts';
import { createOrdersStore } from '../orders/store.ts';
import type { Sql } from '../storage/sql.ts';
import { checkBatchFile, matchingOf, readBatchFile } from './batch-file.ts';
import { earlierOrders as earlierOrdersIn } from './earlier-order.ts';
import { reportRows } from './outcomes.ts';
import { createRunner } from './runner.ts';
import { batchSend, type SendOptions } from './send.ts';
import { batchStates, claimHeld } from './states.ts';
import type { BatchChecking, BatchProgress, BatchRow, BatchRowsPage, BatchSku, BatchSummary, ColumnMapping, ImportInput, ShippingChoice } from './schemas.ts';
import { skuTable } from './sku-table.ts';
import { batchSkuList } from './skus.ts';
import { createBatchTables, type BatchRecord, type StoredRecord } from './tables.ts';
import { createValidator, type ResolveModelName, type Validation } from './validate.ts';
import { costsOf, rowsWithFindings, shippingOf, workspaceOf } from './workspace.ts';
import { referencesAfterEdit } from './edit-references.ts';

export type { ResolveModelName };

export interface BatchesDeps {
  /** drafts and the outbox; the batch tables live beside them, on the same store (`orders.store.sql`) */
  orders: Orders;
  client: () => ApiClient;
  /** `<service> <email>` of the signed-in user, or null (the same key the orders use) */
  account: () => string | null;
  /** the project's models by lower-case name and file name (the library service's job) */
  resolveModelName: ResolveModelName;
  onProgress?: (progress: BatchProgress) => void;
  /** how far checking a batch's shipping is (quotes at the service's pace) */
  onChecking?: (checking: BatchChecking) => void;
  /**
   * A batch of this account, not on its way, was changed on another workstation of the team (a cell, the
   * column matching, values for every row, a SKU, the shipping rule, a check): a view showing it reads it again.
   */
  onEdited?: (batchId: string) => void;
  now?: () => number;
  tickMs?: number;
}

export { MAX_FILE_BYTES, MAX_ROWS } from './batch-file.ts';
const DEFAULT_SHIPPING: ShippingChoice = { kind: 'rule', rule: 'cheapest' };
// A batch sent is still worked on: its rows left (invalid, or rejected by the service) are fixed and sent from it.
const EDITABLE = new Set(['draft', 'cancelled', 'done']);

export type Batches = Awaited<ReturnType<typeof createBatches>>;

/**
 * The file's own problems in the database's column matching and values, with no account and no service:
 * what the CLI checks before it signs in.
 */
export async function checkFile(sql: Sql, bytes: Uint8Array, options: Parameters<typeof checkBatchFile>[2]) {
  // The batch tables' indexes name the drafts table: it is made first.
  await createOrdersStore(sql);
  return checkBatchFile((await createBatchTables(sql)).mappings, bytes, options);
}

export async function createBatches(deps: BatchesDeps) {
  const tables = await createBatchTables(deps.orders.store.sql);
  const skus = skuTable(tables.sql, tables.stamp);
  const earlierOrders = (batchId: string, references: readonly string[]) => earlierOrdersIn(tables.sql, batchId, references);
  const validator = createValidator({
    orders: deps.orders,
    resolveModelName: deps.resolveModelName,
    skus,
    earlierOrders,
    rateLimit: () => deps.client().rateLimit('getShippingMethods'),
    signal: () => deps.client().signal,
    onChecking: (batchId, progress) => deps.onChecking?.({ batchId, ...progress }),
    now: deps.now,
  });
  /** Batches whose last check could not quote shipping (the service was not there), with why. */
  const unchecked = new Map<string, string>();
  const now = deps.now ?? Date.now;
  const states = batchStates(tables.sql, { sender: deps.orders.store.sender, actor: deps.orders.actor }, now);
  // Only the signed-in account's batches are the view's: a team's store holds everyone's.
  const onProgress = (progress: BatchProgress, batch: BatchRecord) => batch.account === deps.account() && deps.onProgress?.(progress);
  /** Told of batches another workstation changed: those of this account it may edit are said to be edited. */
  const told = async (ids: readonly string[]) => {
    for (const id of ids) {
      const batch = await tables.get(id);
      if (batch && batch.account === deps.account() && EDITABLE.has(batch.state) && !preparing(batch)) deps.onEdited?.(id);
    }
  };
  const runner = createRunner({ tables, states, orders: deps.orders, client: deps.client, onProgress, now: deps.now, tickMs: deps.tickMs, onTold: deps.onEdited && ((ids) => void told(ids).catch(() => undefined)) });
  const validate = async (batch: BatchRecord) => validator.validate(batch, await tables.records(batch.id));
  const sending = batchSend({ tables, states, runner, gone: deps.orders.senderGone, validate, keep });
  /** Someone (this process, or another workstation) is checking and queuing the batch's send. */
  const preparing = (batch: BatchRecord) => sending.sendingHere(batch.id) || claimHeld(batch, now(), deps.orders.senderGone);

  function account(): string {
    const current = deps.account();
    if (!current) throw new HostError('NOT_SIGNED_IN', 'Sign in first');
    return current;
  }

  async function owned(batchId: string): Promise<BatchRecord> {
    const batch = await tables.get(batchId);
    if (!batch || batch.account !== account()) throw new HostError('INVALID_INPUT', 'No such batch');
    return batch;
  }

  /** Batches between "Send" and their last draft queued (quotes are being fetched), here or elsewhere: no edit may slip in. */
  const beingSent = (batch: BatchRecord) => new HostError('INVALID_INPUT', `This batch is being sent${batch.sentBy ? ` by ${batch.sentBy}` : ''}; it can no longer change`);

  async function editable(batchId: string): Promise<BatchRecord> {
    const batch = await owned(batchId);
    if (preparing(batch)) throw beingSent(batch);
    if (!EDITABLE.has(batch.state)) throw new HostError('INVALID_INPUT', `This batch is ${batch.state}; import the file again as a new batch to change it`);
    return batch;
  }

  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const withReferences = (records: readonly CsvRecord[], mapping: ColumnMapping, projectId: string): StoredRecord[] => referenced(records, mapping, projectId, sha256);

  async function summary(batch: BatchRecord): Promise<BatchSummary> {
    const { account: _account, layout: id, claim: _claim, claimUntil: _claimUntil, ...rest } = batch;
    const platform = platformById(id);
    const layout = platform && { id: platform.id, name: platform.name, label: platform.label, rowNoun: platform.rowNoun, missing: [...(platform.missing ?? [])] };
    const workspace = await workspaceOf(tables.sql, batch.id);
    const moving = batch.state === 'sending' || batch.state === 'paused';
    return { ...rest, layout, layoutKey: layoutKey(batch.header), ...(await tables.counts(batch.id)), workspace, shippingUnchecked: unchecked.get(batch.id) ?? null, preparing: !moving && preparing(batch) };
  }

  /** A check's findings kept: problems and shipping of the rows checked (all when absent), and whether quotes came. */
  async function keep(batch: BatchRecord, validation: Validation, rows?: readonly number[]) {
    const { errors, orders } = validation;
    await tables.putErrors(batch.id, rows ? errors.filter((e) => rows.includes(e.row)) : errors, rows);
    await tables.putShipping(batch.id, shippingOf(orders), rows && orders.map((o) => o.reference));
    if (validation.unchecked) unchecked.set(batch.id, validation.unchecked.message);
    else if (!rows) unchecked.delete(batch.id);
    // The other workstations showing the batch read it again (team mode).
    runner.changed(batch.id);
  }

  async function revalidate(batch: BatchRecord, fresh: boolean): Promise<BatchSummary> {
    await keep(batch, await validator.validate(batch, await tables.records(batch.id), { fresh }));
    return summary(batch);
  }

  async function importFile(input: ImportInput): Promise<BatchSummary> {
    const file = readBatchFile(input.bytes, input.layout);
    const key = layoutKey(file.header);
    const owner = account();
    const mapping = input.mapping ?? (await matchingOf(tables.mappings, file));
    if (input.mapping) await tables.mappings.remember(key, input.mapping);
    const constants = input.constants ?? (await tables.mappings.recallConstants(key));
    if (input.constants) await tables.mappings.rememberConstants(key, input.constants);
    const fields = { account: owner, projectId: input.projectId, fileName: input.fileName, fileHash: file.fileHash, header: file.header, mapping, shipping: input.shipping ?? DEFAULT_SHIPPING, layout: file.platform?.id ?? null, constants };
    const batch = await tables.create(fields, withReferences(file.records, mapping, input.projectId));
    if (input.include?.length) await tables.update(batch.id, { include: input.include });
    runner.changed(batch.id);
    return revalidate(await owned(batch.id), true);
  }

  /** A corrected file for a batch not sent yet: same batch, new rows; the mapping stays if the layout did. */
  async function reimport(batchId: string, bytes: Uint8Array, fileName: string): Promise<BatchSummary> {
    const batch = await editable(batchId);
    if (batch.sentAt) throw new HostError('INVALID_INPUT', 'Part of this batch was sent; import the corrected file as a new batch (orders already sent are skipped)');
    const file = readBatchFile(bytes);
    const mapping = layoutKey(file.header) === layoutKey(batch.header) ? batch.mapping : await matchingOf(tables.mappings, file);
    await tables.replaceRows(batch.id, { fileName, fileHash: file.fileHash, header: file.header, mapping, layout: file.platform?.id ?? null }, withReferences(file.records, mapping, batch.projectId));
    return revalidate(await owned(batchId), true);
  }

  /**
   * A batch that is not on its way: options and the SKU table may change after a send too, since they touch no
   * reference (the CLI run again with --include or --set sends what they let through, and only that).
   */
  async function still(batchId: string): Promise<BatchRecord> {
    const batch = await owned(batchId);
    if (preparing(batch)) throw beingSent(batch);
    if (batch.state === 'sending' || batch.state === 'paused') throw new HostError('INVALID_INPUT', `This batch is ${batch.state === 'paused' ? 'paused' : 'being sent'}; wait for it to finish or cancel it first`);
    return batch;
  }

  /** Values for every row that has none, and orders taken though not open; the values are kept for the layout. */
  async function setOptions(batchId: string, options: { constants?: FieldConstants; include?: NotOpen[] }): Promise<BatchSummary> {
    const batch = await still(batchId);
    await tables.update(batch.id, options);
    if (options.constants) await tables.mappings.rememberConstants(layoutKey(batch.header), options.constants);
    return revalidate(await owned(batchId), false);
  }

  /** The batch's SKUs with the models they print (the project's SKU table, or a model's file name). */
  async function skuList(batchId: string): Promise<BatchSku[]> {
    const batch = await owned(batchId);
    return batchSkuList(batch, await tables.records(batch.id), skus, await validator.models(batch.projectId));
  }

  /** A SKU picked once (a model, or not a print) for the whole project; the batch is checked again. */
  async function setSku(batchId: string, sku: string, choice: { modelId: string | null; skip: boolean }): Promise<BatchSummary> {
    const batch = await still(batchId);
    await skus.set(batch.projectId, sku, choice);
    return revalidate(batch, false);
  }

  async function setMapping(batchId: string, mapping: ColumnMapping): Promise<BatchSummary> {
    const batch = await editable(batchId);
    if (batch.sentAt) throw new HostError('INVALID_INPUT', 'Part of this batch was sent; its mapping can no longer change');
    await tables.update(batch.id, { mapping });
    await tables.mappings.remember(layoutKey(batch.header), mapping);
    await tables.setRows(batch.id, withReferences(await tables.records(batch.id), mapping, batch.projectId));
    return revalidate(await owned(batchId), false);
  }

  async function setShipping(batchId: string, shipping: ShippingChoice): Promise<BatchSummary> {
    await editable(batchId);
    await tables.update(batchId, { shipping });
    return revalidate(await owned(batchId), false);
  }

  /** A fix in place: the row's order (and the order it joins, if its reference changed) is checked again. */
  async function updateCell(batchId: string, row: number, column: number, value: string): Promise<{ summary: BatchSummary; rows: BatchRow[] }> {
    const batch = await editable(batchId);
    const record = await tables.record(batch.id, row);
    if (!record) throw new HostError('INVALID_INPUT', `Row ${row} is not in this batch`);
    if (!Number.isInteger(column) || column < 0 || column >= batch.header.length) throw new HostError('INVALID_INPUT', `Column ${column + 1} is not in this batch`);
    if (batch.sentAt && column === batch.mapping.orderReference) throw new HostError('INVALID_INPUT', 'Part of this batch was sent; order references can no longer change');
    await reopenRejected(batch, record.reference, row);
    const cells = Array.from({ length: Math.max(record.cells.length, column + 1) }, (_, i) => (i === column ? value : (record.cells[i] ?? '')));
    const changed = await referencesAfterEdit(tables, batch, { row, cells, reference: record.reference }, withReferences);
    await tables.setRows(batch.id, changed);
    const affected = await tables.records(batch.id, [...new Set([record.reference, ...changed.map((r) => r.reference)])]);
    const rowsAffected = affected.map((r) => r.row);
    await keep(batch, await validator.validate(batch, affected), rowsAffected);
    return { summary: await summary(batch), rows: await withErrors(batch.id, affected) };
  }

  /**
   * A row may change while its order is not handed over, or was rejected (no order was made: the service
   * refused it); a rejected order goes back to a draft, sent again with the batch's next send.
   */
  async function reopenRejected(batch: BatchRecord, reference: string, row: number) {
    const sent = await tables.sql.get<{ id: string; state: string }>(
      'SELECT d.id, d.state FROM batch_orders bo JOIN drafts d ON d.id = bo.draft_id WHERE bo.batch_id = ? AND bo.reference = ? AND bo.skipped IS NULL',
      [batch.id, reference],
    );
    if (!sent || sent.state === 'draft') return;
    if (sent.state !== 'rejected' || !(await deps.orders.store.transition(sent.id, ['rejected'], 'draft', { problem: null }))) {
      throw new HostError('INVALID_INPUT', `The order of row ${row} is ${sent.state}; it can no longer be changed here`);
    }
  }

  const withErrors = (batchId: string, records: readonly StoredRecord[]) => rowsWithFindings(tables, earlierOrders, batchId, records);

  async function rows(batchId: string, options: { offset?: number; limit?: number; errorsOnly?: boolean } = {}): Promise<BatchRowsPage> {
    const batch = await owned(batchId);
    const { total, records } = await tables.page(batch.id, options.offset ?? 0, Math.min(options.limit ?? 200, 1000), options.errorsOnly ?? false);
    return { total, rows: await withErrors(batch.id, records) };
  }

  return {
    import: importFile,
    reimport,
    setMapping,
    setShipping,
    setOptions,
    skus: skuList,
    setSku,
    exportSkus: async (projectId: string) => skus.exportCsv(projectId, await validator.models(projectId)),
    importSkus: async (projectId: string, bytes: Uint8Array) => skus.importCsv(projectId, bytes, await validator.models(projectId)),
    updateCell,
    validate: async (batchId: string) => revalidate(await owned(batchId), true),
    /** What sending the batch now would place, and for how much (quotes of its last check, or fresh ones). */
    costs: async (batchId: string) => {
      const batch = await owned(batchId);
      const validation = await validate(batch);
      await keep(batch, validation);
      if (validation.unchecked) throw validation.unchecked;
      return costsOf(tables, batch.id, validation.orders);
    },
    get: async (batchId: string) => summary(await owned(batchId)),
    list: async (projectId: string) => Promise.all((await tables.list(account(), projectId)).map(summary)),
    /** The newest batch of exactly these bytes in the project, for a re-run that should resume it. */
    findByFile: async (projectId: string, bytes: Uint8Array) => {
      const found = await tables.findByFile(projectId, createHash('sha256').update(bytes).digest('hex'));
      return found && found.account === account() ? summary(found) : null;
    },
    rows,
    /** The batch's problems; the kinds asked for, or all. */
    errors: async (batchId: string, kinds?: readonly ProblemKind[]) => tables.errors((await owned(batchId)).id, undefined, kinds),
    /** Sends every valid order (with problems left, only when asked to leave the invalid ones out); joins a send under way. */
    send: async (batchId: string, options: SendOptions = {}) => sending.send(await owned(batchId), options),
    progress: async (batchId: string) => runner.progress(await owned(batchId)),
    pause: async (batchId: string) => runner.pause(await owned(batchId)),
    resume: async (batchId: string) => runner.resume(await owned(batchId)),
    cancel: async (batchId: string) => runner.cancel(await owned(batchId)),
    settled: async (batchId: string) => runner.settled(await owned(batchId)),
    report: async (batchId: string) => reportRows(tables, await owned(batchId)),
    reportCsv: async (batchId: string) => {
      const batch = await owned(batchId);
      return reportCsv(batch.header, await reportRows(tables, batch));
    },
    start: () => runner.start(),
    stop: () => runner.stop(),
  };
}
