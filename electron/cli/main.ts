// `printdesk <command> …`: a dispatcher only. Each command lives in its own file and is loaded when it
// runs, so `inspect` does not load what `batch` needs (a service client, SQLite, the sandbox): that took
// most of inspect's time and memory. A command is added by writing its file and one entry in COMMANDS.
import { EXIT_OK, EXIT_USAGE, type Command, type CommandIo } from './command.ts';
import { restrictUmask } from '../services/private-files.ts';

interface Entry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

const COMMANDS: Entry[] = [
  { name: 'inspect', summary: 'Size, volume, area and watertightness of model files', load: async () => (await import('./inspect.ts')).inspectCommand },
  {
    name: 'batch',
    summary: 'Place the orders of a CSV file exactly once, with a report',
    // batch writes to the process's own streams: it draws a live progress line when they are a terminal.
    load: async () => {
      const { runBatchCommand, USAGE } = await import('./batch.ts');
      return { name: 'batch', summary: 'Place the orders of a CSV file exactly once, with a report', usage: USAGE, run: (args) => runBatchCommand(args) };
    },
  },
];

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
  const entry = COMMANDS.find((candidate) => candidate.name === name);
  if (!entry) {
    io.err(`printdesk: unknown command "${name}".\n\n${help()}`);
    return EXIT_USAGE;
  }
  return (await entry.load()).run(rest, io);
}

if (import.meta.main) {
  restrictUmask();
  const io: CommandIo = { out: (text) => process.stdout.write(`${text}\n`), err: (text) => process.stderr.write(`${text}\n`) };
  process.exitCode = await main(process.argv.slice(2), io);
}
