// `printdesk inspect <file>... [--json]`: the same parser and geometry pass as the app's preview.
import { readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { readableNumber, readableSize } from '../../common/readable-number.ts';
// What a binary STL needs, and no more: the other formats' readers (and the ZIP reader, and zlib) are
// loaded only for a file that needs them, which halves the command's start for the usual STL.
import { isModelParseError, type ModelErrorWhere } from '../../common/models/errors.ts';
import { describeFormat, extensionMismatch } from '../../common/models/format-names.ts';
import type { Conformance, SpecViolation } from '../../common/models/spec-rules.ts';
import { binaryStlFactsInParts } from '../../common/models/stl-binary-parts.ts';
import type { ModelFacts, ModelFormat } from '../../common/models/types.ts';
import { FileTooLarge, readWhole } from '../services/models/read-whole.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type Command, type CommandIo } from './command.ts';

/** Node Buffers top out near 4 GiB and a model that big would not fit the geometry pass either. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024;

const USAGE = 'Usage: printdesk inspect <file>... [--json]\n\nPrints format, triangles, size, volume, area and watertightness of STL, OBJ and 3MF files.';

/**
 * A file read: its facts, and whether it keeps its format's specification (`valid`; a 3MF is checked
 * against the core specification and the materials extension, STL and OBJ have none to break). An invalid
 * file is still read and measured: `conformance` says what it breaks, and where.
 */
export type InspectReport =
  | { file: string; ok: true; format: ModelFormat; valid: boolean; conformance: Omit<Conformance, 'valid'>; facts: Omit<ModelFacts, 'conformance'> }
  | { file: string; ok: false; error: { code: string; message: string; where?: ModelErrorWhere } };

/** The system's reasons, said as a person would. */
const READ_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a folder; name the model files in it, e.g. folder/*.stl',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
};

/**
 * A binary STL's facts read in parts (its positions never held whole), or null when the file is another
 * format or needs reading whole for its reader to say what is wrong with it.
 */
async function binaryStlInParts(path: string): Promise<ModelFacts | null> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > MAX_FILE_BYTES) return null;
    const head = new Uint8Array(Math.min(size, 84));
    await handle.read(head, 0, head.length, 0);
    return binaryStlFactsInParts(head, size, (offset, into) => readSync(handle.fd, into, 0, into.length, offset));
  } finally {
    await handle.close();
  }
}

/** Any other file, read whole by the parser for its format. */
async function readWholeFile(path: string): Promise<{ format: ModelFormat; facts: ModelFacts }> {
  const [{ parseModel }, { zlibInflateRaw }] = await Promise.all([import('../../common/models/index.ts'), import('../services/models/zlib-inflate.ts')]);
  // Held by nothing but the parser, so that its arrays can go once it has done with them.
  return parseModel(await readWhole(path, MAX_FILE_BYTES), basename(path), { inflateRaw: zlibInflateRaw, bytesOwned: true });
}

export async function inspectFile(path: string): Promise<InspectReport> {
  try {
    const inParts = await binaryStlInParts(path);
    if (inParts) {
      const mismatch = extensionMismatch('stl-binary', basename(path));
      if (mismatch) inParts.warnings.unshift(mismatch);
    }
    const { format, facts: all } = inParts ? { format: 'stl-binary' as const, facts: inParts } : await readWholeFile(path);
    const { conformance, ...facts } = all;
    const { valid, ...found } = conformance;
    return { file: path, ok: true, format, valid, conformance: found, facts };
  } catch (error) {
    if (isModelParseError(error)) {
      // Where in the file (byte offset, line, 3MF part), for a script to point at it.
      const where = Object.keys(error.where).length > 0 ? { where: error.where } : {};
      return { file: path, ok: false, error: { code: error.code, message: error.message, ...where } };
    }
    if (error instanceof FileTooLarge) return { file: path, ok: false, error: { code: 'TOO_LARGE', message: `${error.message.replace(/\.$/, '')} for inspect.` } };
    const code = (error as NodeJS.ErrnoException).code;
    if (code) return { file: path, ok: false, error: { code: 'FILE_UNREADABLE', message: `Cannot read ${path}: ${READ_ERRORS[code] ?? code}.` } };
    throw error;
  }
}

const n = (value: number, digits = 2) => readableNumber(value, digits, 'en-US');
/** Whole mm³ and mm² from a thousand up: hundredths of a cubic millimetre in a part of litres are noise. */
const measure = (value: number) => n(value, Math.abs(value) >= 1000 ? 0 : 2);

export function formatReport(report: InspectReport): string {
  if (!report.ok) return `${report.file}\n  error (${report.error.code}): ${report.error.message}`;
  const f = report.facts;
  const lines = [
    report.file,
    `  format       ${describeFormat(report.format)}`,
    `  triangles    ${n(f.triangles, 0)}`,
    // Along the file's own axes: the app shows width × depth × height as the model stands, which differs for a Y-up file.
    `  size         ${readableSize(f.size, 'en-US')} along x, y, z${f.unit.declared ? '' : ' (no unit in the file; read as mm)'}`,
    `  bounds       min (${f.bounds.min.map((x) => n(x, 3)).join(', ')})  max (${f.bounds.max.map((x) => n(x, 3)).join(', ')})`,
    `  volume       ${measure(f.volume)} mm³ (${n(f.volume / 1000, 3)} cm³)${f.watertight ? '' : ' (unreliable: not watertight)'}`,
    `  area         ${measure(f.area)} mm²`,
    `  watertight   ${f.watertight ? 'yes' : `no (${f.openEdges} open, ${f.nonManifoldEdges} non-manifold edges)`}`,
    `  shells       ${f.shells}`,
  ];
  if (report.format === '3mf') lines.push(`  valid        ${validity(report)}`);
  for (const violation of report.conformance.violations) lines.push(`  ${violation.severity === 'error' ? 'breaks' : 'minor '}       ${describeViolation(violation)}`);
  for (const warning of f.warnings) lines.push(`  warning      ${warning}`);
  return lines.join('\n');
}

/** Whether a 3MF keeps the specification, and how many rules it breaks. */
function validity(report: Extract<InspectReport, { ok: true }>): string {
  const { errors, warnings, violations } = report.conformance;
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const listed = errors + warnings > violations.length ? `; ${violations.length} listed` : '';
  if (report.valid) return warnings ? `yes, with ${count(warnings, 'minor breach')} of the specification${listed}` : 'yes';
  return `no: breaks the 3MF specification (${count(errors, 'error')}${warnings ? `, ${count(warnings, 'minor breach')}` : ''}${listed}); the service may refuse it`;
}

/** "3MF Core 3.4.2: Resource id 2 is used twice … (3D/3dmodel.model, <object>, id 2, line 14)": the id in question. */
function describeViolation(violation: SpecViolation): string {
  const { part, element, id, line } = violation.where;
  const where = [part, element && `<${element}>`, id !== undefined && `id ${id}`, line && `line ${line}`].filter(Boolean).join(', ');
  return `${violation.section}: ${violation.message.replace(/\.$/, '')} (${where})`;
}

async function run(args: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    // Node's own wording explains positional arguments; the user only mistyped an option.
    const unknown = /Unknown option '([^']+)'/.exec((error as Error).message);
    io.err(`printdesk inspect: ${unknown ? `unknown option ${unknown[1]}` : (error as Error).message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (parsed.values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (parsed.positionals.length === 0) {
    io.err(`printdesk inspect: no files given.\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  const reports: InspectReport[] = [];
  // For the topology bench (hidden; see bench/topology.bench.ts): the time from opening each file to its
  // facts, without Node's start and the loading of this command, which the app's model worker never pays
  // per model.
  const timings = process.env.PRINTDESK_INSPECT_TIMINGS === '1';
  for (const file of parsed.positionals) {
    const started = timings ? performance.now() : 0;
    // CPU time too (all the process's threads: V8's compiler and collector included): what a busy machine
    // moves less than the wall time.
    const cpuBefore = timings ? process.cpuUsage() : null;
    const report = await inspectFile(file);
    if (cpuBefore) {
      const cpu = process.cpuUsage(cpuBefore);
      io.err(`inspect-timing ${(performance.now() - started).toFixed(2)} ms ${((cpu.user + cpu.system) / 1000).toFixed(2)} cpu-ms ${file}`);
    }
    reports.push(report);
    if (!parsed.values.json) (report.ok ? io.out : io.err)(formatReport(report));
  }
  if (parsed.values.json) io.out(JSON.stringify(reports, null, 2));
  const failed = reports.filter((report) => !report.ok).length;
  if (!parsed.values.json && reports.length > 1) {
    io.out(`\n${reports.length} files: ${reports.length - failed} read${failed ? `, ${failed} could not be read` : ''}.`);
  }
  return failed === 0 ? EXIT_OK : EXIT_FAILED;
}

export const inspectCommand: Command = { name: 'inspect', summary: 'Size, volume, area and watertightness of model files', usage: USAGE, run };
