// `npm run bench -- upload`: a generated 250 MB binary STL uploaded to the sandbox on loopback by
// our client (in its own process, so its memory is its own) beside `curl -T` to the same endpoint
// in the same run, and 1,000 small files through the queue beside a plain sequential loop.
// The client side runs when this file is started with `--client <json>`.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import got from 'got';
import { createApiClient } from '../electron/services/api/client.ts';
import { streamFile } from '../electron/services/api/upload.ts';
import { createLibrary } from '../electron/services/library/index.ts';
import { DEMO_EMAIL } from '../sandbox/seed.ts';
import { login, makeTempDir, startTestSandbox } from '../sandbox/testing.ts';
import { openDatabase } from '../electron/services/storage/database.ts';
import { generateBinaryStl } from '../scripts/generate-stl.ts';
import type { BenchResult } from './run.ts';

const execFileAsync = promisify(execFile);
const BIG_BYTES = 250_000_000;
const ROUNDS = 5;
const SMALL_FILES = 1000;

interface ClientJob {
  mode: 'stream' | 'queue' | 'queue-many' | 'loop-many';
  baseUrl: string;
  token: string;
  projectId: string;
  /** a file, or for the *-many modes a directory */
  target: string;
}

interface ClientRun {
  ms: number;
  peakGrowthMiB: number;
  ok: boolean;
  detail?: string;
}

// ---- client side (child process) ----

async function client(job: ClientJob): Promise<ClientRun> {
  const tokens = { accessToken: async () => job.token, renewAfterRejection: async () => job.token };
  const api = createApiClient({ baseUrl: job.baseUrl, tokens });
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  const started = performance.now();
  let ok: boolean;
  let detail: string | undefined;
  if (job.mode === 'stream') {
    const size = fs.statSync(job.target).size;
    const url = `${job.baseUrl}/Model3D/UploadModel?projectId=${job.projectId}&fileName=bench.stl&allowDuplicate=true`;
    const hash = createHash('sha256');
    const response = await streamFile({ method: 'POST', url, headers: { authorization: `Bearer ${job.token}` }, filePath: job.target, start: 0, end: size, hash });
    ok = response.status === 200;
    detail = `sha256 ${hash.digest('hex').slice(0, 12)}…`;
  } else if (job.mode === 'loop-many') {
    // The plain way: one POST after another, no checks, no hashing, no bookkeeping.
    for (const name of fs.readdirSync(job.target)) {
      const url = `${job.baseUrl}/Model3D/UploadModel?projectId=${job.projectId}&fileName=${name}`;
      await got.post(url, { body: fs.createReadStream(path.join(job.target, name)), headers: { authorization: `Bearer ${job.token}`, 'content-type': 'application/octet-stream' } });
    }
    ok = true;
  } else {
    const dir = makeTempDir('printdesk-bench-db-');
    const db = openDatabase(path.join(dir, 'app.sqlite'));
    // One account signed in throughout, as the demo account is in the app.
    const library = createLibrary({ client: () => api, account: () => `${api.serviceKey} ${DEMO_EMAIL}`, tokens, db, onEvent: () => {}, uploads: { concurrency: 3 } });
    // A file, or a dropped folder of files; the big file goes again each round, so duplicates are allowed.
    await library.uploads.enqueue({ projectId: job.projectId, paths: [job.target], allowDuplicate: job.mode === 'queue' });
    await library.uploads.idle();
    const items = library.uploads.list();
    ok = items.every((i) => i.state === 'done');
    detail = `${items.length} items, ${items.filter((i) => i.state === 'done').length} done`;
    await library.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  return { ms, peakGrowthMiB: Number(((peak - before) / 2 ** 20).toFixed(1)), ok, detail };
}

// ---- bench side ----

async function runClient(job: ClientJob): Promise<ClientRun> {
  const { stdout } = await execFileAsync(process.execPath, [import.meta.filename, '--client', JSON.stringify(job)], { maxBuffer: 1 << 20 });
  const result = JSON.parse(stdout) as ClientRun;
  if (!result.ok) throw new Error(`client ${job.mode} failed: ${result.detail}`);
  return result;
}

/** curl -T streams the file as it reads it; its own timer, and its peak RSS read from /proc while it runs. */
async function runCurl(file: string, url: string, token: string): Promise<{ ms: number; peakMiB: number | null }> {
  const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-X', 'POST', '-T', file,
    '-H', `Authorization: Bearer ${token}`, '-H', 'Content-Type: application/octet-stream', url];
  const child = spawn('curl', args);
  let out = '';
  let peakKiB: number | null = null;
  child.stdout.on('data', (chunk) => (out += chunk));
  const poll = setInterval(() => {
    try {
      const match = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (match) peakKiB = Math.max(peakKiB ?? 0, Number(match[1]));
    } catch {
      // gone, or not Linux
    }
  }, 10);
  await new Promise((resolve) => child.on('close', resolve));
  clearInterval(poll);
  const [status, seconds] = out.trim().split(' ');
  if (status !== '200') throw new Error(`curl answered ${out}`);
  return { ms: Number(seconds) * 1000, peakMiB: peakKiB === null ? null : Number((peakKiB / 1024).toFixed(1)) };
}

async function settleDisk(): Promise<void> {
  await execFileAsync('sync').catch(() => {});
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const mbps = (bytes: number, ms: number) => Number((bytes / 1e6 / (ms / 1000)).toFixed(1));

function makeSmallFiles(dir: string): void {
  for (let i = 0; i < SMALL_FILES; i++) {
    const facets = 20 + ((i * 7919) % 600); // 1 KB to 30 KB
    const bytes = Buffer.alloc(84 + 50 * facets);
    bytes.writeUInt32LE(facets, 80);
    bytes.writeUInt32LE(i, 84); // distinct content per file
    fs.writeFileSync(path.join(dir, `part-${String(i).padStart(4, '0')}.stl`), bytes);
  }
}

export async function run(): Promise<BenchResult[]> {
  const big = path.join(os.tmpdir(), 'printdesk-bench-250mb.stl');
  const size = await generateBinaryStl(big, BIG_BYTES);
  const smallDir = makeTempDir('printdesk-bench-small-');
  makeSmallFiles(smallDir);
  const unlimited = { limit: 1_000_000_000, windowSeconds: 60 };
  const sandbox = await startTestSandbox({ rateLimits: { default: unlimited, 'Model3D/AppendUpload': unlimited } });
  try {
    const { accessToken: token } = await login(sandbox.baseUrl, sandbox.demoAccount);
    const projectId = (await sandbox.operator.listProjects())[0].projectId;
    const job = (mode: ClientJob['mode'], target: string, project = projectId): ClientJob => ({ mode, baseUrl: sandbox.baseUrl, token, projectId: project, target });
    const curlUrl = `${sandbox.baseUrl}/Model3D/UploadModel?projectId=${projectId}&fileName=bench.stl&allowDuplicate=true`;

    await runCurl(big, curlUrl, token); // warm-up: page cache, JIT, the store's first copy
    const curl: Awaited<ReturnType<typeof runCurl>>[] = [];
    const stream: ClientRun[] = [];
    const queue: ClientRun[] = [];
    // Interleaved, so drift hits every contender alike; each starts with no write-back pending
    // from the one before (the service syncs 250 MB to disk per upload, as a durable one must).
    for (let round = 0; round < ROUNDS; round++) {
      await settleDisk();
      curl.push(await runCurl(big, curlUrl, token));
      await settleDisk();
      stream.push(await runClient(job('stream', big)));
      await settleDisk();
      queue.push(await runClient(job('queue', big)));
    }
    // Two rounds each, interleaved, into fresh projects (so neither finds the other's files).
    const loops: ClientRun[] = [];
    const manys: ClientRun[] = [];
    for (let round = 0; round < 2; round++) {
      const fresh = async (name: string) => (await sandbox.operator.createProject(`${name} ${round}`, { assign: DEMO_EMAIL })).projectId;
      loops.push(await runClient(job('loop-many', smallDir, await fresh('Bench loop'))));
      manys.push(await runClient(job('queue-many', smallDir, await fresh('Bench queue'))));
    }
    const loop = { ms: (loops[0].ms + loops[1].ms) / 2 };
    const many = { ms: (manys[0].ms + manys[1].ms) / 2, detail: manys[1].detail };

    const curlRate = mbps(size, median(curl.map((c) => c.ms)));
    const curlPeak = median(curl.map((c) => c.peakMiB ?? 0));
    const rate = (runs: ClientRun[]) => mbps(size, median(runs.map((r) => r.ms)));
    const growth = (runs: ClientRun[]) => Math.max(...runs.map((r) => r.peakGrowthMiB));
    const curlName = 'curl -T to POST /Model3D/UploadModel';
    return [
      { name: 'upload 250 MB: streamFile, one request, SHA-256 on the way', value: rate(stream), unit: 'MB/s', baseline: { name: curlName, value: curlRate }, ratio: Number((rate(stream) / curlRate).toFixed(3)), runsMs: stream.map((r) => Math.round(r.ms)), curlRunsMs: curl.map((c) => Math.round(c.ms)) },
      { name: 'upload 250 MB: upload queue end to end (duplicates allowed, so no hash pass: SHA-256 on the way, resumable chunks growing from 16 to 64 MiB)', value: rate(queue), unit: 'MB/s', baseline: { name: curlName, value: curlRate }, ratio: Number((rate(queue) / curlRate).toFixed(3)), runsMs: queue.map((r) => Math.round(r.ms)) },
      { name: 'upload 250 MB: client peak RSS growth (worst of streamFile runs)', value: growth(stream), unit: 'MiB', baseline: { name: 'curl -T peak RSS (whole process)', value: curlPeak }, ratio: Number((growth(stream) / curlPeak).toFixed(2)), queueGrowthMiB: growth(queue) },
      { name: `${SMALL_FILES} small files (1–30 KB): upload queue, 3 at a time`, value: Number((many.ms / 1000).toFixed(2)), unit: 's', baseline: { name: 'plain sequential got.post loop', value: Number((loop.ms / 1000).toFixed(2)) }, ratio: Number((many.ms / loop.ms).toFixed(3)), detail: many.detail, runsMs: manys.map((r) => Math.round(r.ms)), loopRunsMs: loops.map((r) => Math.round(r.ms)) },
    ];
  } finally {
    await sandbox.dispose();
    fs.rmSync(smallDir, { recursive: true, force: true });
    fs.rmSync(big, { force: true });
  }
}

if (process.argv[1] === import.meta.filename && process.argv[2] === '--client') {
  process.stdout.write(`${JSON.stringify(await client(JSON.parse(process.argv[3]) as ClientJob))}\n`);
}
