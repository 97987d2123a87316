// `npm run bench -- topology`: the field's own mesh checker as the baseline of the topology pass. Our
// `printdesk inspect --json` (read, measure, weld, count edges and shells) beside `admesh -e` (the Debian
// package from which PrusaSlicer's STL checking descends: read, match edges exactly, count open facets and
// the volume) on the same binary STL files, each run as a whole process under /usr/bin/time: wall time and
// peak memory (its maximum resident set). Both are checked to have found the same facts (facets, open
// edges, volume), so neither wins by doing less. Aim: at least 3× faster than admesh, and a peak at or
// below its own. Beside them, Node's own floor (`node -e ''`, timed the same way in the same run): the
// part of our figures that is the runtime's before any of our code runs. Each run's CPU time (user +
// system) too, which what else the machine is doing moves less than the wall time.
// Each process is started by /usr/bin/time, not by this runner: Linux hands a process's maximum RSS down
// to children it starts itself, so a child of this (large) runner would report the runner's size as its own.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { binaryStl, torusWith } from '../scripts/generate-models.ts';
import type { BenchResult } from './run.ts';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
const ADMESH = '/usr/bin/admesh';
const TIME = '/usr/bin/time';
/** Odd, for a median; five, since another process on the machine moves single runs a lot. */
const RUNS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

interface Run {
  seconds: number;
  /** User and system CPU time: less moved than the wall time by what else the machine is doing. */
  cpuSeconds: number;
  peakMiB: number;
  output: string;
}

/** Runs a command under /usr/bin/time; its last stderr line holds the wall time, CPU times and maximum RSS. */
async function timed(command: string, args: string[]): Promise<Run> {
  const { stdout, stderr } = await exec(TIME, ['-f', 'TIMED %e %U %S %M', command, ...args], { maxBuffer: 64 * 1024 * 1024 });
  const match = /TIMED ([\d.]+) ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr);
  if (!match) throw new Error(`No timing from ${command}: ${stderr.slice(-300)}`);
  return { seconds: Number(match[1]), cpuSeconds: Number(match[2]) + Number(match[3]), peakMiB: Number(match[4]) / 1024, output: stdout };
}

interface Facts {
  facets: number;
  open: number;
  volume: number;
}

function oursFound(output: string): Facts {
  const [report] = JSON.parse(output) as { facts: { triangles: number; openEdges: number; volume: number } }[];
  return { facets: report.facts.triangles, open: report.facts.openEdges, volume: report.facts.volume };
}

function admeshFound(output: string): Facts {
  const number = (label: RegExp) => Number(label.exec(output)?.[1] ?? NaN);
  return { facets: number(/Number of facets\s*:\s*(\d+)/), open: number(/Total disconnected facets\s*:\s*(\d+)/), volume: number(/Volume\s*:\s*([\d.]+)/) };
}

/** The 1M-triangle torus of the parsers bench (kept between runs), and the corpus's largest binary STL. */
function files(): { label: string; path: string }[] {
  const dir = join(tmpdir(), 'printdesk-bench-models');
  mkdirSync(dir, { recursive: true });
  // With its facets' normals: admesh's volume is computed from them.
  const torus = join(dir, 'torus-1m-binary-normals.stl');
  if (!existsSync(torus)) writeFileSync(torus, binaryStl(torusWith(1_000_000)));
  return [
    { label: 'a 1M-triangle binary STL torus (50 MB)', path: torus },
    { label: 'the corpus\'s rear_case-binary.stl (18,808 triangles)', path: join(ROOT, '..', 'shared', 'corpus', 'stl', 'rear_case-binary.stl') },
  ];
}

export async function run(): Promise<BenchResult[]> {
  if (!existsSync(ADMESH) || !existsSync(TIME)) throw new Error('The topology bench needs admesh and GNU time (apt-get install admesh time)');
  const results: BenchResult[] = [];
  for (const { label, path } of files()) {
    const ours: Run[] = [];
    const admesh: Run[] = [];
    // Node itself doing nothing, between the two: how much of our figures the runtime takes before any of our code runs.
    const floor: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await timed(NODE, [join(ROOT, 'bin', 'printdesk.js'), 'inspect', '--json', path]));
      floor.push(await timed(NODE, ['-e', '']));
      admesh.push(await timed(ADMESH, ['-e', path]));
    }
    const found = { ours: oursFound(ours[0].output), admesh: admeshFound(admesh[0].output) };
    const agree = found.ours.facets === found.admesh.facets && (found.ours.open === 0) === (found.admesh.open === 0) && Math.abs(found.ours.volume - found.admesh.volume) <= found.admesh.volume * 1e-3;
    // A difference would mean one side did less work than the other: its figures say nothing then.
    if (!agree) throw new Error(`printdesk and admesh found different facts in ${path}: ${JSON.stringify(found)}`);
    const seconds = { ours: median(ours.map((r) => r.seconds)), admesh: median(admesh.map((r) => r.seconds)) };
    const peak = { ours: median(ours.map((r) => r.peakMiB)), admesh: median(admesh.map((r) => r.peakMiB)) };
    const runs = (pick: (run: Run) => number) => ({ ours: ours.map(pick).map((v) => round(v)), admesh: admesh.map(pick).map((v) => round(v)), nodeFloor: floor.map(pick).map((v) => round(v)) });
    const nodeFloor = (pick: (run: Run) => number, digits: number) => ({ command: `node -e ''`, median: round(median(floor.map(pick)), digits) });
    results.push(
      {
        name: `topology of ${label}, whole process: printdesk inspect --json (median s; ratio = how many times faster than admesh; aim 3)`,
        value: round(seconds.ours),
        unit: 's',
        baseline: { name: 'admesh -e (whole process)', value: round(seconds.admesh) },
        ratio: round(seconds.admesh / seconds.ours),
        runs: runs((r) => r.seconds),
        best: { ours: round(Math.min(...ours.map((r) => r.seconds))), admesh: round(Math.min(...admesh.map((r) => r.seconds))) },
        nodeFloor: nodeFloor((r) => r.seconds, 2),
        cpuSeconds: { ours: round(median(ours.map((r) => r.cpuSeconds))), admesh: round(median(admesh.map((r) => r.cpuSeconds))), runs: runs((r) => r.cpuSeconds) },
        sameFacts: agree,
        found,
      },
      {
        name: `topology of ${label}, whole process: peak memory of printdesk inspect --json (median MiB; ratio = ours ÷ admesh; aim 1 or below)`,
        value: round(peak.ours, 1),
        unit: 'MiB',
        baseline: { name: 'admesh -e (whole process)', value: round(peak.admesh, 1) },
        ratio: round(peak.ours / peak.admesh),
        runs: runs((r) => r.peakMiB),
        best: { ours: round(Math.min(...ours.map((r) => r.peakMiB)), 1), admesh: round(Math.min(...admesh.map((r) => r.peakMiB)), 1) },
        nodeFloor: nodeFloor((r) => r.peakMiB, 1),
      },
    );
  }
  return results;
}
