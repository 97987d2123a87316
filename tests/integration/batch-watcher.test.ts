// The watcher (electron/services/batch/watcher.ts) as two workstations race on one batch: a read of the batch
// that began before this workstation joined another's send, and came back after, shows the batch as it was
// before that send's claim. It must neither end the join nor answer a waiter: once the claim lapses, this
// workstation sends the batch itself. (team-batches.test.ts saw both, now and then, in CI.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWatcher } from '../../electron/services/batch/watcher.ts';
import { batchStates } from '../../electron/services/batch/states.ts';
import { createBatchTables, type BatchRecord } from '../../electron/services/batch/tables.ts';
import type { Outbox } from '../../electron/services/orders/outbox.ts';
import type { ApiClient } from '../../electron/services/api/client.ts';
import { createOrdersStore } from '../../electron/services/orders/store.ts';
import { sqliteEngine } from '../sql-engines.ts';
import { batchFieldsOf } from '../batch-fixtures.ts';

test("a read begun before a join, answered after it, neither ends the join nor answers its waiter", { timeout: 30_000 }, async () => {
  const sql = await sqliteEngine.open();
  await createOrdersStore(sql);
  const tables = await createBatchTables(sql);
  const batch = await tables.create(batchFieldsOf('race.csv', 'race'), []);
  // Reads of the batch answer at once, unless held: then with the row as it was when asked, once let go.
  let held: { release: () => void } | null = null;
  const watchedTables = {
    ...tables,
    get: async (id: string): Promise<BatchRecord | null> => {
      const row = await tables.get(id);
      if (!held) return row;
      await new Promise<void>((resolve) => (held = { release: resolve }));
      return row;
    },
  };
  const outbox = { hold: () => undefined, kick: async () => undefined, setConcurrency: () => undefined } as unknown as Outbox;
  const me = { sender: 'bench-1:1', actor: () => 'ada on bench-1' };
  const watcher = createWatcher({
    tables: watchedTables,
    states: batchStates(sql, me),
    outbox,
    client: () => ({ rateLimit: () => undefined }) as unknown as ApiClient,
    gone: () => false,
    tickMs: 20,
  });
  try {
    // A read begins (a notice of the import, say) and is slow to come back.
    held = { release: () => undefined };
    const stale = watcher.observe(batch.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Meanwhile another workstation claims the send for a moment, and this one joins it.
    await sql.run("UPDATE batches SET send_claim = 'bench-9:1', send_claim_until = ?, sent_by = 'bob on bench-9' WHERE id = ?", [Date.now() + 400, batch.id]);
    let sentHere = 0;
    watcher.join(batch.id, async () => void sentHere++);
    const waiting = watcher.settled((await tables.get(batch.id)) as BatchRecord);
    let answered = false;
    void waiting.then(() => (answered = true));
    // The slow read comes back with the batch as it was: claimed by nobody.
    const release = held as { release: () => void } | null;
    held = null;
    release?.release();
    await stale;
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(answered, false, 'the waiter is not answered by a read older than it');
    // The claim lapses: this workstation sends the batch itself.
    const deadline = Date.now() + 5_000;
    while (sentHere === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(sentHere, 1, 'the join was kept, and the batch sent here once the claim lapsed');
  } finally {
    await watcher.stop();
  }
});
