import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { HostError } from '../api/errors.ts';
import { MAX_FILE_BYTES, type Batches } from '../batch/index.ts';
import type { Handlers } from '../dispatch.ts';
import type { PathGrants } from '../path-grants.ts';

type BatchHandlers = Pick<Handlers, Extract<keyof Handlers, `batch:${string}`>>;

/**
 * Only what a batch file can be, on top of the path being handed over by the user (path-grants.ts): a
 * renderer made to misbehave must not read keys, configs or the sandbox's secrets back through the rows
 * of a "batch".
 */
const BATCH_FILE = /\.(csv|tsv|txt)$/i;

async function readCsv(path: string): Promise<Uint8Array> {
  if (!BATCH_FILE.test(path)) throw new HostError('FILE_INVALID', `${basename(path)} is not a CSV, TSV or text file; export the orders as CSV first`);
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new HostError('FILE_UNREADABLE', `${basename(path)} cannot be read`);
  if (info.size > MAX_FILE_BYTES) throw new HostError('FILE_INVALID', `${basename(path)} is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; split it into several batches`);
  return new Uint8Array(await readFile(path));
}

export function batchHandlers(batches: Batches, grants: PathGrants): BatchHandlers {
  // The file itself handed over: a folder given for its models hands over no order list in it.
  const readGranted = (path: string) => (grants.check([path], true), readCsv(path));
  return {
    'batch:list': ({ projectId }) => batches.list(projectId),
    'batch:import': async ({ projectId, path, fileName, mapping, shipping, layout }) =>
      batches.import({ projectId, bytes: await readGranted(path), fileName: fileName ?? basename(path), mapping, shipping, layout }),
    'batch:reimport': async ({ batchId, path, fileName }) => batches.reimport(batchId, await readGranted(path), fileName ?? basename(path)),
    'batch:get': ({ batchId }) => batches.get(batchId),
    'batch:rows': ({ batchId, ...options }) => batches.rows(batchId, options),
    'batch:setMapping': ({ batchId, mapping }) => batches.setMapping(batchId, mapping),
    'batch:setShipping': ({ batchId, shipping }) => batches.setShipping(batchId, shipping),
    'batch:setOptions': ({ batchId, ...options }) => batches.setOptions(batchId, options),
    'batch:skus': ({ batchId }) => batches.skus(batchId),
    'batch:setSku': ({ batchId, sku, modelId, skip }) => batches.setSku(batchId, sku, { modelId, skip }),
    'batch:exportSkus': async ({ batchId }) => ({ csv: await batches.exportSkus((await batches.get(batchId)).projectId) }),
    'batch:importSkus': async ({ batchId, path }) => {
      const { imported } = await batches.importSkus((await batches.get(batchId)).projectId, await readGranted(path));
      return { summary: await batches.validate(batchId), imported };
    },
    'batch:updateCell': ({ batchId, row, column, value }) => batches.updateCell(batchId, row, column, value),
    'batch:costs': ({ batchId }) => batches.costs(batchId),
    'batch:send': ({ batchId, skipInvalid }) => batches.send(batchId, { skipInvalid }),
    'batch:progress': ({ batchId }) => batches.progress(batchId),
    'batch:pause': ({ batchId }) => batches.pause(batchId),
    'batch:resume': ({ batchId }) => batches.resume(batchId),
    'batch:cancel': ({ batchId }) => batches.cancel(batchId),
    'batch:report': ({ batchId }) => batches.report(batchId),
    'batch:reportCsv': async ({ batchId }) => ({ csv: await batches.reportCsv(batchId) }),
    'batch:findByFile': ({ projectId, bytes }) => batches.findByFile(projectId, bytes),
    'batch:importBytes': (input) => batches.import(input),
    'batch:importProjectSkus': ({ projectId, bytes }) => batches.importSkus(projectId, bytes),
    'batch:errors': ({ batchId, kinds }) => batches.errors(batchId, kinds),
    'batch:settled': ({ batchId }) => batches.settled(batchId),
  };
}
