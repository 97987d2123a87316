// `printdesk batch` beside the app on one data folder goes ahead (the outbox sends each order once) and says so.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runBatchCommand } from '../../electron/cli/batch.ts';
import { claimInstance } from '../../electron/services/instance/lock.ts';
import { makePrivateDir } from '../../electron/services/private-files.ts';

const base = mkdtempSync(join(tmpdir(), 'printdesk-cli-app-'));
after(() => rmSync(base, { recursive: true, force: true }));

async function dryRun(userData: string): Promise<string> {
  const csv = join(base, 'orders.csv');
  writeFileSync(csv, 'orderReference,firstName\nR-1,Ada\n');
  let stderr = '';
  const io = { stdout: { write: () => true, isTTY: false }, stderr: { write: (text: string) => (stderr += text) }, env: { PRINTDESK_USER_DATA: userData } };
  await runBatchCommand([csv, '--project', 'Demo project', '--dry-run'], io);
  return stderr;
}

test('the CLI says when the desktop app or browser mode runs on its data folder, and not otherwise', async () => {
  const userData = makePrivateDir(join(base, 'data'));
  assert.doesNotMatch(await dryRun(userData), /PrintDesk is running/);
  const app = claimInstance(userData, 'browser');
  assert.ok(app.claimed);
  app.claim.update({ origin: 'http://127.0.0.1:4321', handoffSecret: 'x' });
  try {
    assert.match(await dryRun(userData), new RegExp(`PrintDesk is running on this data folder \\(browser mode at http://127\\.0\\.0\\.1:4321, process ${process.pid}\\)\\. Both send through its one outbox, so no order is placed twice\\.`));
  } finally {
    app.claim.release();
  }
});
