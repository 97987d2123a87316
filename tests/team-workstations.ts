// Workstations of a team as separate processes (tests/integration/fixtures/team-worker.ts), each with its own
// data folder, for the soak test that kills them and the bench that times them. Each can be started again
// after it was killed, on the same folder: the same workstation, a new process.
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface WorkstationOptions {
  name: string;
  /** its data folder: its database, so its workstation id */
  dataDir: string;
  storeUrl: string;
  baseUrl: string;
  email: string;
  password: string;
  csvPath: string;
  projectId: string;
  /** the one that imports the file and sends it, or one whose outbox joins in */
  role: 'import' | 'join';
  leaseMs: number;
  /** told each line the process writes that the workstation does not read itself */
  onLine?: (line: string) => void;
}

export interface Workstation {
  readonly name: string;
  /** the process running now, or null */
  readonly pid: number | null;
  /** started and not yet exited (nor killed) */
  readonly up: boolean;
  /** its process said the batch is settled and exited */
  readonly settled: boolean;
  readonly starts: number;
  readonly kills: number;
  /** its id in the team's store (`claimed_by`), once its process has said it */
  readonly workstation: string | null;
  /** the longest its event loop was late, in ms */
  readonly maxLagMs: number;
  /** runs that ended with an error of their own (not killed, not settled) */
  readonly crashes: number;
  start(): void;
  /** Resolves when the process running now is signed in and running. */
  ready(): Promise<void>;
  /** SIGKILL, as a crash or a pulled plug; resolves once it has exited. */
  kill(): Promise<void>;
  /** Resolves when the process running now exits, with its code (null when killed). */
  exited(): Promise<number | null>;
}

const worker = join(import.meta.dirname, 'integration', 'fixtures', 'team-worker.ts');

export function createWorkstation(options: WorkstationOptions): Workstation {
  let child: ChildProcess | null = null;
  let up = false;
  let settled = false;
  let starts = 0;
  let kills = 0;
  let workstation: string | null = null;
  let maxLagMs = 0;
  let crashes = 0;
  let ready: Promise<void> = Promise.resolve();
  let exited: Promise<number | null> = Promise.resolve(null);

  function start() {
    if (up) throw new Error(`${options.name} is running already`);
    const { dataDir, storeUrl, baseUrl, email, password, csvPath, projectId, role, leaseMs } = options;
    const process_ = spawn(process.execPath, [worker, dataDir, storeUrl, baseUrl, email, password, csvPath, projectId, role, String(leaseMs)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // Started again and again: the compiled code is kept between starts, as the `printdesk` command keeps it.
      env: { ...process.env, NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache') },
    });
    child = process_;
    up = true;
    starts++;
    let stderr = '';
    process_.stderr?.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4_000)));
    let onReady: () => void = () => undefined;
    let onFailed: (error: Error) => void = () => undefined;
    ready = new Promise<void>((resolve, reject) => ((onReady = resolve), (onFailed = reject)));
    ready.catch(() => undefined);
    createInterface({ input: process_.stdout! }).on('line', (line) => {
      const [word, rest = ''] = line.split(/ (.*)/s);
      if (word === 'ready') onReady();
      else if (word === 'workstation') workstation = rest;
      else if (word === 'lag') {
        maxLagMs = Math.max(maxLagMs, Number(rest));
        if (Number(rest) > 500) options.onLine?.(`${options.name}: ${line}`);
      }
      else if (word === 'settled') settled = true;
      if (word !== 'lag') options.onLine?.(`${options.name}: ${line}`);
    });
    exited = new Promise((resolve) =>
      process_.on('exit', (code, signal) => {
        up = false;
        if (child === process_) child = null;
        if (signal !== 'SIGKILL' && code !== 0) {
          crashes++;
          options.onLine?.(`${options.name} exited with ${code ?? signal}: ${stderr}`);
        }
        onFailed(new Error(`${options.name} exited before it was ready (${code ?? signal}): ${stderr}`));
        resolve(code);
      }),
    );
  }

  return {
    name: options.name,
    get pid() {
      return child?.pid ?? null;
    },
    get up() {
      return up;
    },
    get settled() {
      return settled;
    },
    get starts() {
      return starts;
    },
    get kills() {
      return kills;
    },
    get workstation() {
      return workstation;
    },
    get maxLagMs() {
      return maxLagMs;
    },
    get crashes() {
      return crashes;
    },
    start,
    ready: () => ready,
    async kill() {
      if (!child || !up) return;
      kills++;
      up = false;
      child.kill('SIGKILL');
      await exited;
    },
    exited: () => exited,
  };
}
