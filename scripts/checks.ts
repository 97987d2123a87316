// `npm run checks`: lint and typecheck at once. Each of package.json's "lint" and "typecheck" scripts is a
// chain of single-threaded steps (eslint, electronegativity, one tsc per runtime, svelte-check); run one
// after another they left every core but one idle for about a minute and a half of each CI run. Here they
// run side by side, one per core, each step's output printed whole when it ends, and the run fails if any
// step did. The steps are read from those two scripts, so they stay the one place that names them.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const scripts: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
const steps = ['lint', 'typecheck'].flatMap((name) => scripts[name].split('&&').map((command) => command.trim()));

interface Outcome {
  command: string;
  code: number;
  output: string;
  seconds: number;
}

function run(command: string): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    // npm run puts node_modules/.bin on PATH for the scripts; a step started here finds its tools the same way.
    const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`, FORCE_COLOR: '0' };
    const child = spawn(command, { cwd: root, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    const end = (code: number) => resolve({ command, code, output, seconds: (performance.now() - started) / 1000 });
    child.on('error', (error) => {
      output += `${error.message}\n`;
      end(1);
    });
    child.on('close', (code) => end(code ?? 1));
  });
}

async function main(): Promise<number> {
  const queue = [...steps];
  const outcomes: Outcome[] = [];
  const lane = async () => {
    for (let command = queue.shift(); command; command = queue.shift()) {
      const outcome = await run(command);
      outcomes.push(outcome);
      process.stdout.write(`\n${outcome.code === 0 ? '✔' : '✖'} ${command} (${outcome.seconds.toFixed(1)} s)\n${outcome.output}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(availableParallelism(), steps.length) }, lane));
  const failed = outcomes.filter((o) => o.code !== 0);
  process.stdout.write(`\n${steps.length - failed.length} of ${steps.length} checks passed${failed.length ? `; failed: ${failed.map((o) => o.command).join(', ')}` : ''}\n`);
  return failed.length ? 1 : 0;
}

process.exitCode = await main();
