// Durable outbox transitions per second with 1,000 and 10,000 drafts stored, beside the naive
// store: one JSON file rewritten atomically (write, fsync, rename) per change.
import { closeSync, fsyncSync, mkdtempSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteSql } from '../electron/services/storage/sqlite-sql.ts';
import { openPostgresStore } from '../electron/services/storage/postgres-sql.ts';
import type { Sql } from '../electron/services/storage/sql.ts';
import { startPgCluster, type PgCluster } from '../tests/pg-cluster.ts';
import { createOrdersStore } from '../electron/services/orders/store.ts';
import { emptyOrderContent } from '../common/orders/empty.ts';
import type { DraftFields } from '../electron/contract/schemas/orders.ts';
import { openDatabase } from '../electron/services/storage/database.ts';
import type { BenchResult } from './run.ts';

// About 1 KB per record, like a real order.
const fields: DraftFields = {
  recipient: { firstName: 'Ada', lastName: 'Lovelace', streetAddress: 'Keizersgracht 123, apartment 4'.repeat(3), postal: '1015 CJ', city: 'Amsterdam', country: 'NL', countryState: '', phoneNumber: '+31 20 123 4567', email: 'ada@example.com' },
  models: Array.from({ length: 5 }, (_, i) => ({ modelId: `0f8fad5b-d9cb-469f-a165-7086772895${String(i).padStart(2, '0')}`, quantity: i + 1, name: `part-${i}.stl` })),
  shippingMethod: { shippingMethodId: 101, carrier: 'POSTNL', method: 'STANDARD', servicePoint: false, price: 695, minDeliveryTime: '2026-11-24T09:00:00Z', maxDeliveryTime: '2026-11-26T18:00:00Z', estimatedDeliveryTime: '2026-11-25T14:00:00Z' },
  orderContent: emptyOrderContent(),
};

/** Durable transitions per second through the orders store on `sql`, with `stored` drafts in it. */
async function storeRate(sql: Sql, stored: number): Promise<number> {
  const store = await createOrdersStore(sql);
  const ids: string[] = [];
  await store.sql.transaction(async (tx) => {
    for (let i = 0; i < stored; i++) ids.push((await store.create('bench', 'p', fields, undefined, undefined, tx)).id);
  });
  const transitions = 3_000;
  const started = performance.now();
  for (let i = 0; i < transitions; i++) {
    const id = ids[(i * 7919) % ids.length];
    if (!(await store.transition(id, ['draft'], 'queued', {}, true))) await store.transition(id, ['queued'], 'draft', {}, true);
  }
  return transitions / ((performance.now() - started) / 1000);
}

/** The disk's own floor: a bare one-row UPDATE committed with synchronous=FULL, nothing else. */
async function sqliteRate(stored: number, dir: string): Promise<number> {
  return storeRate(sqliteSql(openDatabase(join(dir, `outbox-${stored}.db`))), stored);
}

/** The same on a team's PostgreSQL on this computer (a throwaway cluster committing to this disk as a server would). */
async function postgresRate(stored: number, cluster: PgCluster): Promise<number> {
  const store = await openPostgresStore(await cluster.createDatabase());
  try {
    return await storeRate(store, stored);
  } finally {
    await store.close();
  }
}

function bareCommitRate(dir: string, name: string): number {
  const db = openDatabase(join(dir, `floor-${name}.db`));
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, state TEXT)');
  db.prepare(`INSERT INTO t (state) VALUES ('draft')`).run();
  const update = db.prepare('UPDATE t SET state = ? WHERE id = 1');
  db.exec('PRAGMA synchronous = FULL');
  const commits = 3_000;
  const started = performance.now();
  for (let i = 0; i < commits; i++) db.transaction(() => update.run(i % 2 ? 'queued' : 'draft'))();
  const rate = commits / ((performance.now() - started) / 1000);
  db.close();
  return rate;
}

function jsonFileRate(stored: number, dir: string): number {
  const records = Array.from({ length: stored }, (_, i) => ({ id: String(i), state: 'draft', ...fields }));
  const file = join(dir, `outbox-${stored}.json`);
  const changes = stored > 5_000 ? 20 : 60;
  const started = performance.now();
  for (let i = 0; i < changes; i++) {
    records[i % stored].state = records[i % stored].state === 'draft' ? 'queued' : 'draft';
    const temp = `${file}.tmp`;
    const fd = openSync(temp, 'w');
    writeSync(fd, JSON.stringify(records));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, file);
  }
  return changes / ((performance.now() - started) / 1000);
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'printdesk-outbox-bench-'));
  try {
    const results: BenchResult[] = [];
    for (const stored of [1_000, 10_000]) {
      const ours = Math.round(await sqliteRate(stored, dir));
      const baseline = Math.round(jsonFileRate(stored, dir));
      const floor = Math.round(bareCommitRate(dir, String(stored)));
      results.push({
        floor: { name: 'bare SQLite commit with synchronous=FULL on this disk', value: floor, ratio: Number((ours / floor).toFixed(2)) },
        name: `durable outbox transitions/s with ${stored} drafts stored (SQLite WAL, synchronous=FULL)`,
        value: ours,
        unit: 'transitions/s',
        baseline: { name: 'one JSON file rewritten atomically per change', value: baseline },
        ratio: Number((ours / baseline).toFixed(1)),
      });
    }
    // Team mode: the same transitions on a team's PostgreSQL here (each a round trip and a commit of its own
    // to the server, which fsyncs its WAL), beside the local file's in the same run.
    const cluster = await startPgCluster({ durable: true });
    try {
      for (const stored of [1_000, 10_000]) {
        const team = Math.round(await postgresRate(stored, cluster));
        const local = Math.round(await sqliteRate(stored, dir));
        results.push({
          name: `durable outbox transitions/s with ${stored} drafts stored (team store: PostgreSQL on this computer, fsync on)`,
          value: team,
          unit: 'transitions/s',
          baseline: { name: 'the same on the local SQLite file (WAL, synchronous=FULL)', value: local },
          ratio: Number((team / local).toFixed(2)),
        });
      }
    } finally {
      await cluster.stop();
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
