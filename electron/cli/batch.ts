// `printdesk batch <file.csv> --project <id>`: the Batch view's import, validation, outbox and
// report from a terminal. Exit codes: 0 every order placed (or, with --dry-run, valid),
// 1 some rejected / failed / not sent, 2 invalid input (usage, unreadable or malformed file,
// rows with problems), 3 the service cannot be reached or sign-in fails.
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { NO_REFERENCE_COLUMN } from '../../common/batch/references.ts';
import { parseShippingChoice } from '../../common/batch/shipping-rule.ts';
import { HostError } from '../api/errors.ts';
import { createProgressPrinter, describeEnd, listErrors, type Output } from '../batch/cli-output.ts';
import { createBatchHost, type BatchHost } from '../batch/node-host.ts';
import type { BatchSummary } from '../batch/schemas.ts';
import { startSandbox, type Sandbox } from '../sandbox/server.ts';
import { checkBaseUrl } from '../session/service-url.ts';
import { makePrivateDir, writePrivateFile } from '../private-files.ts';
import { openDatabase, type Db } from '../storage/database.ts';
import { defaultUserDataDir } from '../user-data.ts';
import { EXIT, Exit } from './exit.ts';
import { terminalPrompt } from './prompt.ts';
import { noteRunningApp } from './running-app.ts';
import { signIn, type SignInIo } from './sign-in.ts';

export interface BatchIo extends SignInIo {
  stdout: Output;
  stderr: Output;
  /** give up (exit 3) after the service has been unreachable this long mid-batch; default 60 s */
  giveUpMs?: number;
}

export const USAGE = `Usage: printdesk batch <file.csv> --project <id or name> [options]

Places one order per orderReference in the file (rows without one are one order each),
through the same validation and outbox as the app. Re-running the same file never places an
order twice; after an interruption it resumes where it stopped.

Options:
  --project <id|name>    the project the models and orders belong to (required)
  --dry-run              validate (with live quotes) and report, send nothing
  --report <out.csv>     write every row with its outcome (placed + order id, rejected + why, …)
  --shipping <choice>    for rows without one: cheapest (default), fastest, a method id, or "CARRIER method"
  --skip-invalid         send the valid orders even if some rows have problems
  --service <baseUrl>    the service (…/v2); default: the app's embedded sandbox

Credentials: PRINTDESK_EMAIL and PRINTDESK_PASSWORD (or PRINTDESK_PASSWORD_FILE, a file whose first
line is the password). Without them the embedded sandbox's demo account is used, and for another
service a terminal asks for them. (The app's saved session is
encrypted with the OS keychain through Electron and cannot be read from here yet.)
Data: the app's own database under PRINTDESK_USER_DATA or the OS default, so the app shows the batch.

Exit codes: 0 all placed, 1 some not placed, 2 invalid input, 3 service unreachable or sign-in failed,
130 interrupted (Ctrl+C): what was not yet sent stays queued for the next run.`;

const defaultIo = (): BatchIo => ({ stdout: process.stdout, stderr: process.stderr, env: process.env, ask: terminalPrompt() });

export async function runBatchCommand(argv: string[], io: BatchIo = defaultIo()): Promise<number> {
  const resources: { db?: Db; sandbox?: Sandbox; host?: BatchHost } = {};
  try {
    return await run(argv, io, resources);
  } catch (error) {
    if (error instanceof Exit) {
      if (error.message) io.stderr.write(`${error.message}\n`);
      return error.code;
    }
    io.stderr.write(`printdesk batch: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof HostError && ['OFFLINE', 'TIMEOUT', 'AUTHENTICATION', 'NOT_SIGNED_IN'].includes(error.code) ? EXIT.unreachable : EXIT.partial;
  } finally {
    await resources.host?.stop();
    resources.db?.close();
    await resources.sandbox?.close();
  }
}

function options(argv: string[]) {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        project: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        report: { type: 'string' },
        shipping: { type: 'string' },
        'skip-invalid': { type: 'boolean', default: false },
        service: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) throw new Exit(EXIT.ok, USAGE);
    const [file, ...extra] = positionals[0] === 'batch' ? positionals.slice(1) : positionals;
    if (!file || extra.length) throw new Exit(EXIT.invalid, `${file ? `Unexpected argument: ${extra[0]}` : 'Which file? Give the CSV file to import.'}\n\n${USAGE}`);
    if (!values.project) throw new Exit(EXIT.invalid, `--project is required.\n\n${USAGE}`);
    const shipping = values.shipping === undefined ? undefined : parseShippingChoice(values.shipping);
    if (shipping === null) throw new Exit(EXIT.invalid, `--shipping ${values.shipping}: use cheapest, fastest, a method id, or "CARRIER method"`);
    return { file, project: values.project, dryRun: values['dry-run'], report: values.report, shipping, skipInvalid: values['skip-invalid'], service: values.service };
  } catch (error) {
    if (error instanceof Exit) throw error;
    throw new Exit(EXIT.invalid, `${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
}

async function run(argv: string[], io: BatchIo, resources: { db?: Db; sandbox?: Sandbox; host?: BatchHost }): Promise<number> {
  const opts = options(argv);
  const bytes = await readFile(opts.file).catch((error: NodeJS.ErrnoException) => {
    throw new Exit(EXIT.invalid, `Cannot read ${opts.file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  const userDataDir = makePrivateDir(defaultUserDataDir(io.env));
  noteRunningApp(userDataDir, io.stderr);
  let baseUrl: string;
  if (opts.service) {
    const checked = checkBaseUrl(opts.service);
    if (!checked.ok) throw new Exit(EXIT.invalid, `--service ${opts.service}: ${checked.message}`);
    baseUrl = checked.baseUrl;
  } else {
    resources.sandbox = await startSandbox({ dataDir: join(userDataDir, 'sandbox'), quiet: true }).catch((error: Error) => {
      throw new Exit(EXIT.unreachable, `The embedded sandbox could not start: ${error.message}`);
    });
    baseUrl = resources.sandbox.baseUrl;
  }
  let unreachableSince: number | null = null;
  const printer = createProgressPrinter(io.stdout);
  resources.db = openDatabase(join(userDataDir, 'printdesk.db'));
  const host = (resources.host = createBatchHost({
    db: resources.db,
    baseUrl,
    // The embedded sandbox gets a new port each start; its data, and so the account, stay the same.
    serviceKey: opts.service ? baseUrl : 'embedded-sandbox',
    onProgress: (p) => printer.update(p, p.state !== 'sending'),
    onReachability: (reachable) => (unreachableSince = reachable ? null : (unreachableSince ?? Date.now())),
  }));
  await signIn(host, io, resources.sandbox?.demoAccount ?? null);
  const projectId = await findProject(host, opts.project);
  host.start();

  const batch = await openBatch(host, { bytes, fileName: basename(opts.file), projectId, shipping: opts.shipping });
  io.stdout.write(`${batch.fileName}: ${batch.rows} rows, ${batch.orders} orders, ${batch.rowsWithErrors} rows with problems\n`);
  if (batch.mapping.orderReference === undefined) io.stdout.write(`${NO_REFERENCE_COLUMN}\n`);
  const writeReport = async () => {
    // Recipients' names and addresses: for this user alone, like everything else PrintDesk writes.
    if (opts.report) writePrivateFile(opts.report, host.batches.reportCsv(batch.id));
  };
  if (batch.errors > 0 && !batch.sentAt) {
    const errors = host.batches.errors(batch.id);
    // Row 1 is the header: columns that cannot be matched hold back every row, and --skip-invalid cannot help.
    const columns = errors.some((e) => e.row === 1);
    io.stderr.write(`Problems${opts.skipInvalid && !columns ? ' (these rows are left out)' : ''}:\n`);
    listErrors(io.stderr, errors);
    if (columns) {
      await writeReport();
      throw new Exit(EXIT.invalid, 'Nothing was sent: the file\'s columns could not all be matched. Name them as in the sample the Batch view offers, or import the file once in the app and match them there (PrintDesk remembers the matching for files of this layout).');
    }
    if (!opts.skipInvalid) {
      await writeReport();
      throw new Exit(EXIT.invalid, 'Nothing was sent. Fix the rows above (or use --skip-invalid to send the others) and run again.');
    }
  }
  if (opts.dryRun && batch.sentAt) {
    await writeReport();
    io.stdout.write(`Dry run: this file was sent before (on ${batch.sentAt.slice(0, 10)}); running it again only sends what that run did not. Nothing was sent.\n`);
    return EXIT.ok;
  }
  if (opts.dryRun) {
    await writeReport();
    const latest = host.batches.get(batch.id);
    const skipped = latest.usedElsewhere;
    const held = latest.orders - latest.sendable - skipped;
    const valid = held > 0 ? `${latest.orders - held} of ${latest.orders} orders are valid (${held} with problems would be left out)` : `${latest.orders} ${latest.orders === 1 ? 'order is' : 'orders are'} valid`;
    const before = skipped ? `${skipped} ${skipped === 1 ? 'was' : 'were'} sent before and would be skipped, ` : '';
    io.stdout.write(`Dry run: ${valid}; ${before}${latest.sendable} would be sent. Nothing was sent.\n`);
    return EXIT.ok;
  }
  // A file run before is resumed as the same batch: what it had placed is not this run's doing.
  const placedBefore = batch.sentAt ? host.batches.report(batch.id).filter((r) => r.outcome === 'placed').length : 0;
  await host.batches.send(batch.id, { skipInvalid: opts.skipInvalid });
  const stop = stopSignals(() => unreachableSince, io.giveUpMs ?? 60_000);
  const outcome = await Promise.race([host.batches.settled(batch.id), stop.promise]).finally(stop.dispose);
  printer.done();
  // Stopped short: the orders on their way are answered (within the outbox's grace) before the report is
  // written, or the report would call pending what the service has just placed.
  if (outcome === 'unreachable' || outcome === 'interrupted') await host.stop();
  await writeReport();
  const resume = 'Run the same command again to resume; nothing is sent twice.';
  if (outcome === 'unreachable') throw new Exit(EXIT.unreachable, `The service cannot be reached. ${resume}`);
  if (outcome === 'interrupted') throw new Exit(EXIT.interrupted, `Interrupted: orders not yet sent stay queued. ${resume}`);
  const rows = host.batches.report(batch.id);
  const notPlaced = rows.filter((r) => !r.orderId);
  for (const r of notPlaced.slice(0, 20)) io.stderr.write(`  row ${r.row} (${r.reference}): ${r.outcome}${r.message ? ` — ${r.message}` : ''}\n`);
  io.stdout.write(`${describeEnd(rows, placedBefore, opts.report)}\n`);
  return notPlaced.length ? EXIT.partial : EXIT.ok;
}

async function findProject(host: BatchHost, wanted: string): Promise<string> {
  const projects = await host.client.getProjects().catch((error: Error) => {
    throw new Exit(EXIT.unreachable, `Cannot list your projects: ${error.message}`);
  });
  const found = projects.find((p) => p.projectId.toLowerCase() === wanted.toLowerCase()) ?? projects.find((p) => p.name.toLowerCase() === wanted.toLowerCase());
  if (found) return found.projectId;
  const known = projects.map((p) => `${p.name} (${p.projectId})`).join(', ') || 'none';
  throw new Exit(EXIT.invalid, `No project "${wanted}" for this account. Your projects: ${known}`);
}

/** A batch of these bytes sent before is resumed; one never sent is checked again; otherwise a new import. */
async function openBatch(host: BatchHost, input: { bytes: Uint8Array; fileName: string; projectId: string; shipping?: ReturnType<typeof parseShippingChoice> }): Promise<BatchSummary> {
  try {
    const earlier = host.batches.findByFile(input.projectId, input.bytes);
    if (earlier?.sentAt) return earlier;
    if (earlier) return input.shipping ? await host.batches.setShipping(earlier.id, input.shipping) : await host.batches.validate(earlier.id);
    return await host.batches.import({ bytes: input.bytes, fileName: input.fileName, projectId: input.projectId, shipping: input.shipping ?? undefined });
  } catch (error) {
    if (error instanceof HostError && error.code === 'FILE_INVALID') throw new Exit(EXIT.invalid, `${input.fileName}: ${error.message}`);
    throw error;
  }
}

/** Why to stop waiting early: the service unreachable for `ms` without a break, or Ctrl-C. */
function stopSignals(since: () => number | null, ms: number) {
  let timer: ReturnType<typeof setInterval> | undefined;
  let onSigint: (() => void) | undefined;
  const promise = new Promise<'unreachable' | 'interrupted'>((resolve) => {
    timer = setInterval(() => {
      const at = since();
      if (at !== null && Date.now() - at >= ms) resolve('unreachable');
    }, 500);
    onSigint = () => resolve('interrupted');
    process.once('SIGINT', onSigint);
  });
  return {
    promise,
    dispose: () => {
      clearInterval(timer);
      if (onSigint) process.off('SIGINT', onSigint);
    },
  };
}
