// The Electronegativity gate in `npm run lint` reads the real window: the same window.ts with a weakened
// webPreferences is reported, so its silence on the real one means the checks ran and passed.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { scan } from '../../scripts/electronegativity.ts';

const root = join(import.meta.dirname, '..', '..');

test('electronegativity reports window.ts once its webPreferences are weakened', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'printdesk-eng-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'electron', 'shell'), { recursive: true });
  mkdirSync(join(dir, 'renderer'));
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  cpSync(join(root, 'renderer', 'index.html'), join(dir, 'renderer', 'index.html'));
  const real = readFileSync(join(root, 'electron', 'shell', 'window.ts'), 'utf8');
  const weakened = real.replace('sandbox: true', 'sandbox: false').replace('contextIsolation: true', 'contextIsolation: false').replace("disableBlinkFeatures: 'Auxclick'", "disableBlinkFeatures: ''");
  assert.notEqual(weakened, real);
  writeFileSync(join(dir, 'electron', 'shell', 'window.ts'), weakened);
  const log = console.log;
  console.log = () => undefined;
  const { issues, errors } = await scan(dir).finally(() => (console.log = log));
  assert.deepEqual(errors, []);
  assert.deepEqual(issues.map((issue) => `${issue.file} ${issue.id}`).sort(), ['electron/shell/window.ts AUXCLICK_JS_CHECK', 'electron/shell/window.ts CONTEXT_ISOLATION_JS_CHECK', 'electron/shell/window.ts SANDBOX_JS_CHECK']);
});
