// `printdesk batch <file.csv> --project <id>`: the Batch view's import, validation, outbox and
// report from a terminal, on any file the app reads (shops' own exports too). Exit codes: 0 every
// order taken was placed (or, with --dry-run, every row would be sent), 1 some rejected / failed /
// not sent, 2 invalid input (usage, unreadable or malformed file, rows with problems: found before
// signing in where the project is not needed), 3 the service cannot be reached or sign-in fails.
import { TeamStoreError } from '../services/storage/postgres-sql.ts';
import { basename } from 'node:path';
import { NO_REFERENCE_COLUMN } from '../../common/batch/references.ts';
import { HostError } from '../services/api/errors.ts';
import { inGroup } from '../../common/errors.ts';
import { createProgressPrinter, describeEnd, listErrors, type Output } from '../services/batch/cli-output.ts';
import type { BatchSummary } from '../services/batch/schemas.ts';
import { checkBaseUrl } from '../../common/service-url.ts';
import { databasePath } from '../services/paths.ts';
import { makePrivateDir, writePrivateFile } from '../services/private-files.ts';
import { openDatabase, type Db } from '../services/storage/database.ts';
import { defaultUserDataDir } from '../services/user-data.ts';
import { batchOptions, USAGE, type BatchOptions } from './batch-options.ts';
import { checkBeforeSignIn, readInput, UNMATCHED_COLUMNS } from './batch-check.ts';
import { describeStillOpen, dryRun, printCosts } from './batch-summary.ts';
import { EXIT, Exit } from './exit.ts';
import { bootCliHost, type CliHost } from './host.ts';
import { terminalPrompt } from './prompt.ts';
import { interruptedBefore, watchInterrupt, type Interrupt } from './interrupt.ts';
import { noteRunningApp } from './running-app.ts';
import { signIn, type SignInIo } from './sign-in.ts';

export interface BatchIo extends SignInIo {
  stdout: Output;
  stderr: Output;
  /** give up (exit 3) after the service has been unreachable this long mid-batch; default 60 s */
  giveUpMs?: number;
}

export { USAGE };

const defaultIo = (): BatchIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env, ask: terminalPrompt() });

interface Resources {
  /** the data folder's database, until the host takes it over */
  db?: Db;
  host?: CliHost;
  interrupt: Interrupt;
  /** Ctrl+C: what is on its way ends at once, and the orders it carried go again, under their reference, next run */
  stopping: AbortController;
}

export async function runBatchCommand(argv: string[], io: BatchIo = defaultIo()): Promise<number> {
  const resources: Resources = { interrupt: watchInterrupt(), stopping: new AbortController() };
  resources.interrupt.onInterrupt(() => resources.stopping.abort());
  try {
    return await run(argv, io, resources);
  } catch (thrown) {
    // Ctrl+C before sending: whatever the step was doing failed because it was stopped, which is what is said.
    const stopped = resources.interrupt.interrupted && !(thrown instanceof Exit && thrown.code === EXIT.interrupted);
    const error = stopped ? new Exit(EXIT.interrupted, interruptedBefore(resources.interrupt.phase)) : thrown;
    if (error instanceof Exit) {
      if (error.message) io.stderr.write(`${error.message}\n`);
      return error.code;
    }
    io.stderr.write(`printdesk batch: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof HostError && (inGroup('unreachable', error.code) || inGroup('signedOut', error.code)) ? EXIT.unreachable : EXIT.partial;
  } finally {
    resources.interrupt.dispose();
    if (resources.host) await resources.host.close();
    else resources.db?.close();
  }
}

async function run(argv: string[], io: BatchIo, resources: Resources): Promise<number> {
  const { interrupt } = resources;
  /** After a step that cannot be stopped halfway: Ctrl+C during it ends the command now. */
  const checkpoint = () => {
    if (interrupt.interrupted) throw new Exit(EXIT.interrupted, interruptedBefore(interrupt.phase));
  };
  const opts = batchOptions(argv);
  const bytes = await readInput(opts.file);
  const skuMap = opts.skuMap === undefined ? null : await readInput(opts.skuMap, '--sku-map');
  const userDataDir = makePrivateDir(defaultUserDataDir(io.env));
  noteRunningApp(userDataDir, io.stderr);
  resources.db = openDatabase(databasePath(userDataDir));
  // Before the service is asked anything: a file that cannot be sent says so now, whether or not it is up.
  await checkBeforeSignIn(resources.db, bytes, opts, io);
  let baseUrl: string | null = null;
  if (opts.service) {
    const checked = checkBaseUrl(opts.service);
    if (!checked.ok) throw new Exit(EXIT.invalid, `--service ${opts.service}: ${checked.message}`);
    baseUrl = checked.baseUrl;
  }
  // The app's host: the embedded sandbox (unless --service) and what an earlier run left queued or sending.
  const host = (resources.host = await bootCliHost({ userDataDir, db: resources.db, baseUrl, signal: resources.stopping.signal, teamStore: io.env.PRINTDESK_STORE || undefined }).catch((error: Error) => {
    if (error instanceof TeamStoreError) throw new Exit(EXIT.unreachable, teamStoreFailure(error, Boolean(io.env.PRINTDESK_STORE)));
    throw baseUrl ? error : new Exit(EXIT.unreachable, `The embedded sandbox could not start: ${error.message}`);
  }));
  let unreachableSince: number | null = null;
  const printer = createProgressPrinter(io.stdout);
  host.on('batch:progress', (p) => printer.update(p, p.state !== 'sending'));
  host.on('batch:checking', (c) => c.total > 0 && printer.checking(c));
  host.on('connectivity:changed', ({ online }) => (unreachableSince = online ? null : (unreachableSince ?? Date.now())));
  checkpoint();
  interrupt.phase = 'signing in';
  await signIn(host, io);
  const projectId = await findProject(host, opts.project);
  checkpoint();
  interrupt.phase = 'checking the file';
  if (skuMap) await importSkuMap(host, projectId, skuMap, opts.skuMap as string, io);

  const batch = await openBatch(host, { bytes, fileName: basename(opts.file), projectId, opts });
  printer.done();
  checkpoint();
  if (batch.shippingUnchecked) throw new Exit(EXIT.unreachable, `Shipping could not be checked, so no row was judged by it and nothing was sent: ${batch.shippingUnchecked}`);
  const problems = [batch.rowsWithErrors && `${batch.rowsWithErrors} with problems`, batch.rowsWithWarnings && `${batch.rowsWithWarnings} with warnings (sent as written)`].filter(Boolean);
  if (problems.length) io.stdout.write(`Rows: ${problems.join(', ')}\n`);
  if (batch.mapping.orderReference === undefined) io.stdout.write(`${NO_REFERENCE_COLUMN}\n`);
  const writeReport = async () => {
    // Recipients' names and addresses: for this user alone, like everything else PrintDesk writes.
    if (opts.report) writePrivateFile(opts.report, (await host.call('batch:reportCsv', { batchId: batch.id })).csv);
  };
  const stillOpen = async () => {
    for (const line of await describeStillOpen(host, batch.id, opts)) io.stdout.write(`${line}\n`);
  };
  if (batch.errors > 0 && !batch.sentAt) {
    const errors = await host.call('batch:errors', { batchId: batch.id, kinds: ['error'] });
    // Row 1 is the header: columns that cannot be matched hold back every row, and --skip-invalid cannot help.
    const columns = errors.some((e) => e.row === 1);
    io.stderr.write(`Problems${opts.skipInvalid && !columns ? ' (these rows are left out)' : ''}:\n`);
    listErrors(io.stderr, errors);
    if (columns) {
      await writeReport();
      throw new Exit(EXIT.invalid, UNMATCHED_COLUMNS);
    }
    if (!opts.skipInvalid) {
      await writeReport();
      await stillOpen();
      throw new Exit(EXIT.invalid, 'Nothing was sent. Fix the rows above (or use --skip-invalid to send the others) and run again.');
    }
  }
  if (opts.dryRun) return dryRun(host, batch, opts, io, writeReport, stillOpen);
  await printCosts(host, batch.id, io);
  checkpoint();
  interrupt.phase = 'sending';
  // A file run before is resumed as the same batch: what it had placed is not this run's doing.
  const placedBefore = batch.sentAt ? (await host.call('batch:report', { batchId: batch.id })).filter((r) => r.outcome === 'placed').length : 0;
  const current = await host.call('batch:get', { batchId: batch.id });
  // A run stopped halfway (or cancelled in the app) is taken up again even when nothing new is left to queue.
  const resumable = current.sentAt !== null && current.state !== 'done';
  if (current.sendable > 0 || resumable) await host.call('batch:send', { batchId: batch.id, skipInvalid: opts.skipInvalid });
  const stop = stopSignals(() => unreachableSince, io.giveUpMs ?? 60_000, interrupt);
  const outcome = await Promise.race([host.call('batch:settled', { batchId: batch.id }), stop.promise]).finally(stop.dispose);
  printer.done();
  // Stopped short: the orders on their way are answered (within the outbox's grace) before the report is
  // written, or the report would call pending what the service has just placed.
  if (outcome === 'unreachable' || outcome === 'interrupted') await host.stop();
  await writeReport();
  const resume = 'Run the same command again to resume; nothing is sent twice.';
  if (outcome === 'unreachable') throw new Exit(EXIT.unreachable, `The service cannot be reached. ${resume}`);
  if (outcome === 'interrupted') throw new Exit(EXIT.interrupted, `Interrupted: orders not yet sent stay queued. ${resume}`);
  const rows = await host.call('batch:report', { batchId: batch.id });
  // Rows not taken (not open on their platform, or no print) are listed below with what would send them.
  const notPlaced = rows.filter((r) => !r.orderId && r.outcome !== 'skipped');
  for (const r of notPlaced.slice(0, 20)) io.stderr.write(`  row ${r.row} (${r.reference}): ${r.outcome}${r.message ? ` — ${r.message}` : ''}\n`);
  const taken = rows.filter((r) => r.orderId || r.outcome !== 'skipped');
  io.stdout.write(`${taken.length ? describeEnd(taken, placedBefore, opts.report) : 'Nothing to send: no order of this file is taken (see below).'}\n`);
  await stillOpen();
  return notPlaced.length ? EXIT.partial : EXIT.ok;
}

/** The SKU map given with --sku-map, added to the project's SKU table before the file is checked. */
async function importSkuMap(host: CliHost, projectId: string, bytes: Uint8Array, path: string, io: BatchIo) {
  try {
    const { imported } = await host.call('batch:importProjectSkus', { projectId, bytes });
    io.stdout.write(`SKU table: ${imported} ${imported === 1 ? 'SKU' : 'SKUs'} from ${basename(path)} kept for this project\n`);
  } catch (error) {
    if (error instanceof HostError && error.code === 'FILE_INVALID') throw new Exit(EXIT.invalid, `--sku-map ${basename(path)}: ${error.message}`);
    throw error;
  }
}

async function findProject(host: CliHost, wanted: string): Promise<string> {
  const projects = await host.call('projects:list', undefined).catch((error: Error) => {
    throw new Exit(EXIT.unreachable, `Cannot list your projects: ${error.message}`);
  });
  const found = projects.find((p) => p.projectId.toLowerCase() === wanted.toLowerCase()) ?? projects.find((p) => p.name.toLowerCase() === wanted.toLowerCase());
  if (found) return found.projectId;
  const known = projects.map((p) => `${p.name} (${p.projectId})`).join(', ') || 'none';
  throw new Exit(EXIT.invalid, `No project "${wanted}" for this account. Your projects: ${known}`);
}

/**
 * A batch of these bytes sent before is resumed (with the options given now: --include or --set let more
 * through, and only that is sent); one never sent is checked again; otherwise a new import.
 */
async function openBatch(host: CliHost, input: { bytes: Uint8Array; fileName: string; projectId: string; opts: BatchOptions }): Promise<BatchSummary> {
  const { opts } = input;
  try {
    const earlier = await host.call('batch:findByFile', { projectId: input.projectId, bytes: input.bytes });
    if (earlier) {
      // Stopped while sending (Ctrl+C, a crash): taken up as it was, with the options it was sent with.
      if (earlier.state === 'sending' || earlier.state === 'paused') return earlier;
      if (opts.shipping && !earlier.sentAt) await host.call('batch:setShipping', { batchId: earlier.id, shipping: opts.shipping });
      // This run's flags, not the last run's: without --include only open orders are taken.
      return await host.call('batch:setOptions', { batchId: earlier.id, constants: opts.constants && { ...earlier.constants, ...opts.constants }, include: opts.include ?? [] });
    }
    const { shipping, layout, constants, include } = opts;
    return await host.call('batch:importBytes', { bytes: input.bytes, fileName: input.fileName, projectId: input.projectId, shipping, layout, constants, include });
  } catch (error) {
    if (error instanceof HostError && error.code === 'FILE_INVALID') throw new Exit(EXIT.invalid, `${input.fileName}: ${error.message}`);
    throw error;
  }
}

/** Why to stop waiting early: the service unreachable for `ms` without a break, or Ctrl+C. */
function stopSignals(since: () => number | null, ms: number, interrupt: Interrupt) {
  let timer: ReturnType<typeof setInterval> | undefined;
  const unreachable = new Promise<'unreachable'>((resolve) => {
    timer = setInterval(() => {
      const at = since();
      if (at !== null && Date.now() - at >= ms) resolve('unreachable');
    }, 500);
  });
  return { promise: Promise.race([unreachable, interrupt.promise]), dispose: () => clearInterval(timer) };
}

/** A team store that could not be opened, with where it was named; the app's saved password is its keychain's alone. */
function teamStoreFailure(error: TeamStoreError, fromEnvironment: boolean): string {
  if (fromEnvironment) return `${error.message} (PRINTDESK_STORE). Nothing was sent.`;
  const password = ['password-needed', 'wrong-password'].includes(error.failure.reason)
    ? ' The app keeps its password in the system keychain, which the command line cannot read: set PGPASSWORD, keep it in ~/.pgpass, or set PRINTDESK_STORE.'
    : '';
  return `${error.message} (the store chosen in the app’s Settings → Team).${password} Nothing was sent.`;
}
