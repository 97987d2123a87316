// A batch file read and matched as every front door does it (the app, the CLI): size and row limits, the
// platform's export recognised, its columns matched as the user matched this layout last. And the check the
// CLI makes before it signs in: every rule that needs no project (columns, recipients, quantities, which
// orders are open), so that a broken file is said at once, with or without the service.
import { createHash } from 'node:crypto';
import { autoMap, checkMapping, layoutKey, type ColumnMapping, type FieldConstants } from '../../../common/batch/mapping.ts';
import type { LayoutName, NotOpen } from '../../../common/batch/platforms/types.ts';
import { readExport, type ExportFile } from '../../../common/batch/read-export.ts';
import { withReferences } from '../../../common/batch/references.ts';
import { rowsToOrders, type BatchError } from '../../../common/batch/rows-to-orders.ts';
import { reportCsv } from '../../../common/batch/report.ts';
import { HostError } from '../api/errors.ts';
import type { LayoutMemory } from './layout-memory.ts';
import { unsentOutcomes } from './outcomes.ts';

export const MAX_FILE_BYTES = 64 * 1024 * 1024;
export const MAX_ROWS = 100_000;

export interface BatchFile extends ExportFile {
  fileHash: string;
}

export function readBatchFile(bytes: Uint8Array, layout?: LayoutName): BatchFile {
  if (bytes.byteLength > MAX_FILE_BYTES) throw new HostError('FILE_INVALID', `The file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB; split it into several batches`);
  const parsed = readExport(bytes, layout);
  if (!parsed.ok) throw new HostError('FILE_INVALID', parsed.error.message, { details: { ...parsed.error } });
  if (parsed.value.records.length === 0) throw new HostError('FILE_INVALID', 'The file has a header row but no order rows');
  if (parsed.value.records.length > MAX_ROWS) throw new HostError('FILE_INVALID', `The file has ${parsed.value.records.length} rows; a batch holds at most ${MAX_ROWS}. Split it.`);
  return { ...parsed.value, fileHash: createHash('sha256').update(bytes).digest('hex') };
}

/** How a file of this layout is matched: as the user matched it last, as its platform's is, or by its names. */
export async function matchingOf(memory: LayoutMemory, file: BatchFile): Promise<ColumnMapping> {
  return (await memory.recall(layoutKey(file.header))) ?? file.mapping ?? autoMap(file.header);
}

export interface FileCheck {
  file: BatchFile;
  orders: number;
  /** columns that cannot be matched: every row is held back */
  mappingProblems: string[];
  /** rows' problems the service would refuse, the models left aside (they need the project) */
  errors: BatchError[];
  /** every row with what would become of it as things stand, for a report written without a batch */
  report: () => string;
}

const MODEL_FIELDS = new Set(['modelId', 'modelName', 'sku']);

export async function checkBatchFile(memory: LayoutMemory, bytes: Uint8Array, options: { layout?: LayoutName; constants?: FieldConstants; include?: NotOpen[] }): Promise<FileCheck> {
  const file = readBatchFile(bytes, options.layout);
  const mapping = await matchingOf(memory, file);
  const constants = { ...(await memory.recallConstants(layoutKey(file.header))), ...options.constants };
  const problems = checkMapping(file.header, mapping, constants);
  const records = withReferences(file.records, mapping, '', (text) => createHash('sha256').update(text).digest('hex'));
  const { orders, errors } = problems.length
    ? { orders: [], errors: [] }
    : rowsToOrders({ header: file.header, records, mapping, constants, platform: file.platform, include: options.include });
  const held = errors.filter((e) => (e.kind === 'error' && !(e.field && MODEL_FIELDS.has(e.field))) || e.kind === 'skip');
  const headerProblems = problems.map((p) => ({ row: 1, column: null, field: p.field, message: p.message, kind: 'error' as const }));
  return {
    report: () => reportCsv(file.header, unsentOutcomes(records, [...headerProblems, ...held])),
    file,
    orders: orders.length,
    mappingProblems: problems.map((p) => p.message),
    errors: held.filter((e) => e.kind === 'error'),
  };
}
