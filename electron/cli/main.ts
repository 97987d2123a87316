// `printdesk <command> …`: a dispatcher only. Each command lives in its own file and exports a Command, so
// `batch` (or anything else) is added by writing electron/cli/batch.ts and one line in COMMANDS.
import { EXIT_OK, EXIT_USAGE, type Command, type CommandIo } from './command.ts';
import { runBatchCommand, USAGE as BATCH_USAGE } from './batch.ts';
import { inspectCommand } from './inspect.ts';
import { restrictUmask } from '../private-files.ts';

// batch writes to the process's own streams: it draws a live progress line when they are a terminal.
const batchCommand: Command = {
  name: 'batch',
  summary: 'Place the orders of a CSV file exactly once, with a report',
  usage: BATCH_USAGE,
  run: (args) => runBatchCommand(args),
};

const COMMANDS: Command[] = [inspectCommand, batchCommand];

function help(): string {
  const lines = COMMANDS.map((command) => `  ${command.name.padEnd(10)} ${command.summary}`);
  return ['Usage: printdesk <command> [options]', '', 'Commands:', ...lines, '', 'Run "printdesk <command> --help" for its options.'].join('\n');
}

export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    (name ? io.out : io.err)(help());
    return name ? EXIT_OK : EXIT_USAGE;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.err(`printdesk: unknown command "${name}".\n\n${help()}`);
    return EXIT_USAGE;
  }
  return command.run(rest, io);
}

if (import.meta.main) {
  restrictUmask();
  const io: CommandIo = { out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`) };
  process.exitCode = await main(process.argv.slice(2), io);
}
