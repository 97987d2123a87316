// The file given to `printdesk batch`, read and checked before signing in: what no run could send is said
// (exit 2) whether or not the service is up.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { CONSTANT_FIELDS } from '../../common/batch/mapping.ts';
import { HostError } from '../services/api/errors.ts';
import { describeFile, listErrors } from '../services/batch/cli-output.ts';
import { checkFile } from '../services/batch/index.ts';
import { writePrivateFile } from '../services/private-files.ts';
import type { Db } from '../services/storage/database.ts';
import { sqliteSql } from '../services/storage/sqlite-sql.ts';
import type { BatchOptions } from './batch-options.ts';
import type { BatchIo } from './batch.ts';
import { EXIT, Exit } from './exit.ts';

export const UNMATCHED_COLUMNS =
  "Nothing was sent: the file's columns could not all be matched. Name them as in the sample the Batch view offers, or import the file once in the app and match them there (PrintDesk remembers the matching for files of this layout).";

export async function readInput(path: string, option?: string): Promise<Uint8Array> {
  return readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new Exit(EXIT.invalid, `Cannot read ${option ? `${option} ` : ''}${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
}

/** The file read, matched and checked with no service: exit 2 for what no run could send. */
export async function checkBeforeSignIn(db: Db, bytes: Uint8Array, opts: BatchOptions, io: BatchIo) {
  let check: Awaited<ReturnType<typeof checkFile>>;
  try {
    check = await checkFile(sqliteSql(db), bytes, { layout: opts.layout, constants: opts.constants, include: opts.include });
  } catch (error) {
    if (error instanceof HostError && error.code === 'FILE_INVALID') throw new Exit(EXIT.invalid, `${basename(opts.file)}: ${error.message}`);
    throw error;
  }
  const { file } = check;
  io.stdout.write(`${describeFile(basename(opts.file), file.platform?.label ?? null, file.platform?.rowNoun ?? 'row', file.records.length, check.orders)}\n`);
  const writeReport = async () => {
    if (opts.report) writePrivateFile(opts.report, check.report());
  };
  if (check.mappingProblems.length) {
    for (const problem of check.mappingProblems) io.stderr.write(`  ${problem}\n`);
    await writeReport();
    const hint = check.mappingProblems.some((p) => /every row/.test(p)) ? ' A value for every row is given with --set (for instance --set email=orders@shop.example).' : '';
    throw new Exit(EXIT.invalid, `${UNMATCHED_COLUMNS}${hint}`);
  }
  if (check.errors.length && !opts.skipInvalid) {
    io.stderr.write('Problems:\n');
    listErrors(io.stderr, check.errors);
    await writeReport();
    const missing = [...new Set(check.errors.filter((e) => e.message.startsWith('Required') && isConstantField(e.field)).map((e) => e.field))];
    const given = missing.length ? ` A value for every row that has none is given with --set (for instance --set ${missing[0] === 'phoneNumber' ? 'phone' : missing[0]}=…).` : '';
    throw new Exit(EXIT.invalid, `Nothing was sent. Fix the rows above (or use --skip-invalid to send the others) and run again.${given}`);
  }
}

const isConstantField = (field: string | null) => (CONSTANT_FIELDS as readonly (string | null)[]).includes(field);
