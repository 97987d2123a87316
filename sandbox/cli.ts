// `npm run sandbox -- [--port N] [--data DIR] …` runs the sandbox alone;
// `npm run sandbox -- operator …` runs an operator command (see operator-cli.ts).
import { parseArgs } from 'node:util';
import { runOperator } from './operator-cli.ts';
import { startSandbox } from './server.ts';
import { restrictUmask } from './private-files.ts';

const SERVER_HELP = `Usage: sandbox [options]            run the sandbox service on 127.0.0.1
       sandbox operator --help      operator commands (users, projects, faults)

Options:
  --port <n>          port to listen on (default 0 = any free port)
  --data <dir>        data directory (default .sandbox-data)
  --access-ttl <s>    access token lifetime in seconds (default 3600)
  --refresh-ttl <s>   refresh token lifetime in seconds (default 43200)
  --admin-secret <s>  secret of the /__admin endpoint (default: random)
  --quiet             do not log requests
  -h, --help          show this help`;

async function runServer(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '0' },
      data: { type: 'string', default: '.sandbox-data' },
      'access-ttl': { type: 'string' },
      'refresh-ttl': { type: 'string' },
      'admin-secret': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(SERVER_HELP);
    return 0;
  }
  const sandbox = await startSandbox({
    dataDir: values.data,
    port: integer(values.port, '--port'),
    accessTokenTtlSeconds: values['access-ttl'] === undefined ? undefined : integer(values['access-ttl'], '--access-ttl'),
    refreshTokenTtlSeconds: values['refresh-ttl'] === undefined ? undefined : integer(values['refresh-ttl'], '--refresh-ttl'),
    adminSecret: values['admin-secret'],
    quiet: values.quiet,
  });
  console.log(`sandbox listening on ${sandbox.baseUrl}`);
  console.log(`demo account: ${sandbox.demoAccount.email} / ${sandbox.demoAccount.password}`);
  console.log(`no-project account: ${sandbox.noProjectAccount.email} / ${sandbox.noProjectAccount.password}`);
  console.log(`admin secret: ${sandbox.adminSecret}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void sandbox.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}

function integer(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${flag} must be a non-negative integer, got ${text}`);
  return value;
}

async function main(argv: string[]): Promise<number> {
  restrictUmask();
  if (argv[0] === 'operator') return runOperator(argv.slice(1));
  return runServer(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
