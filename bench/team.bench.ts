// Team mode: three workstations, each a process with its own data folder, on one PostgreSQL (committing to this
// disk as a server would) send one batch against the sandbox in a process of its own, with the service's normal
// limits; beside one workstation sending the same batch alone in the same run, and beside the most the CreateOrder
// limit allows. That limit counts per account (the signed-in user), and a team's workstations send one account's
// drafts: the three share it, so they cannot go past it together, and the figures say how close they come.
// `npm run bench -- team 1800` sends 1,800 orders (default 1,200: two windows of the limit).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEASE_MS } from '../electron/services/orders/store.ts';
import { sandboxDataDir } from '../electron/services/paths.ts';
import { DEFAULT_RATE_LIMITS } from '../sandbox/rate-limit.ts';
import { startPgCluster, type PgCluster } from '../tests/pg-cluster.ts';
import { createWorkstation } from '../tests/team-workstations.ts';
import { generate } from './batch.bench.ts';
import { startChildSandbox } from './child-sandbox.ts';
import type { BenchResult } from './run.ts';

const LIMIT = DEFAULT_RATE_LIMITS['Order/CreateOrder'] ?? DEFAULT_RATE_LIMITS.default;

interface Run {
  seconds: number;
  ordersPerSecond: number;
}

/** `stations` workstations send one batch of `orders` to a fresh sandbox (its rate windows unused) and a fresh database. */
async function send(stations: number, orders: number, cluster: PgCluster): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'printdesk-team-bench-'));
  const sandbox = await startChildSandbox(sandboxDataDir(dir));
  try {
    const csvPath = join(dir, 'orders.csv');
    writeFileSync(csvPath, generate(orders, 'orders'));
    const storeUrl = await cluster.createDatabase();
    // From the moment the importer sends (the file read and checked) to the last workstation seeing it settled.
    let sentAt = 0;
    let settledAt = 0;
    const onLine = (line: string) => {
      if (/^bench-1: batch /.test(line)) sentAt = performance.now();
      if (/: settled /.test(line)) settledAt = performance.now();
    };
    const workstations = Array.from({ length: stations }, (_, i) =>
      createWorkstation({
        name: `bench-${i + 1}`,
        dataDir: join(dir, `bench-${i + 1}`),
        storeUrl,
        baseUrl: sandbox.baseUrl,
        email: sandbox.demoAccount.email,
        password: sandbox.demoAccount.password,
        csvPath,
        projectId: sandbox.projectId,
        role: i === 0 ? 'import' : 'join',
        leaseMs: LEASE_MS,
        onLine,
      }),
    );
    for (const workstation of workstations) workstation.start();
    const codes = await Promise.all(workstations.map((w) => w.exited()));
    const placed = await sandbox.count();
    if (codes.some((code) => code !== 0) || placed.orders !== orders || placed.references !== orders) {
      throw new Error(`expected ${orders} orders placed once each by ${stations} workstations: ${JSON.stringify({ codes, placed })}`);
    }
    const seconds = (settledAt - sentAt) / 1000;
    return { seconds: Number(seconds.toFixed(2)), ordersPerSecond: Number((orders / seconds).toFixed(2)) };
  } finally {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(args: string[] = []): Promise<BenchResult[]> {
  const orders = Number(args[0] ?? 2 * LIMIT.limit);
  if (!(orders > LIMIT.limit)) throw new Error(`Send more than one window of the limit (${LIMIT.limit} orders) to meet it.`);
  const cluster = await startPgCluster({ durable: true });
  try {
    const one = await send(1, orders, cluster);
    const three = await send(3, orders, cluster);
    // Windows open at the first call: the last one cannot open before (windows - 1) whole windows have passed.
    const leastSeconds = (Math.ceil(orders / LIMIT.limit) - 1) * LIMIT.windowSeconds;
    const floor = Number((orders / leastSeconds).toFixed(2));
    const limit = `${LIMIT.limit} CreateOrder calls per ${LIMIT.windowSeconds} s per account`;
    return [
      {
        name: `team: three workstations on one PostgreSQL sending one ${orders.toLocaleString('en')}-order batch under the service's limit (${limit}, shared by the three): combined orders/s`,
        value: three.ordersPerSecond,
        unit: 'orders/s',
        baseline: { name: `the most the limit allows for ${orders} orders: ${orders} / ((ceil(${orders}/${LIMIT.limit}) - 1) x ${LIMIT.windowSeconds} s)`, value: floor },
        ratio: Number((three.ordersPerSecond / floor).toFixed(3)),
        seconds: three.seconds,
        sustainedLimit: { name: `the limit's average rate`, value: LIMIT.limit / LIMIT.windowSeconds },
      },
      {
        name: `team: three workstations beside one, the same ${orders.toLocaleString('en')}-order batch under the same limit (orders/s)`,
        value: three.ordersPerSecond,
        unit: 'orders/s',
        baseline: { name: 'one workstation alone, same store, same service, same run', value: one.ordersPerSecond },
        ratio: Number((three.ordersPerSecond / one.ordersPerSecond).toFixed(3)),
        seconds: three.seconds,
        oneWorkstation: { seconds: one.seconds, ratioToFloor: Number((one.ordersPerSecond / floor).toFixed(3)) },
      },
    ];
  } finally {
    await cluster.stop();
  }
}
