// Electronegativity (Doyensec) over the Electron side of PrintDesk, as part of `npm run lint`: fails on any
// finding above LOW. It reads the sources as written (electron/, the renderer's page and scripts, and
// package.json for the Electron version), so window.ts creates its window in a form it recognises.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Issue {
  id: string;
  file: string;
  location: { line: number; column: number };
  severity: { name: string; value: number };
  confidence: { name: string };
  description: string;
}

type Run = (options: Record<string, unknown>) => Promise<{ issues: Issue[]; errors: Array<{ file: string; message: string }> }>;

const root = join(import.meta.dirname, '..');
const LOW = 1;

/** The findings above LOW in `sources` (a folder laid out as the project is), and the files it could not read. */
export async function scan(sources: string): Promise<{ issues: Issue[]; errors: string[] }> {
  const run = createRequire(import.meta.url)('@doyensec/electronegativity') as Run;
  const { devDependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const result = await run({
    input: sources,
    isRelative: true,
    electronVersionOverride: devDependencies.electron,
    // It asks the internet which Electron releases have security fixes: an answer that changes by the day and
    // that CI (no internet) never gets. The Electron version is kept current by hand.
    excludeFromScan: ['availablesecurityfixesglobalcheck'],
  });
  return { issues: result.issues.filter((issue) => issue.severity.value > LOW), errors: result.errors.map((e) => `${e.file}: ${e.message}`) };
}

/** What the app ships, laid out as in the project (node_modules, dist and tests left out). */
function sourcesCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'printdesk-electronegativity-'));
  for (const part of ['electron', 'renderer', 'package.json']) cpSync(join(root, part), join(dir, part), { recursive: true });
  return dir;
}

if (import.meta.main) {
  const dir = sourcesCopy();
  try {
    // Its own chatter (banner, translations it cannot fetch offline) stays out of the lint output.
    const log = console.log;
    console.log = () => undefined;
    const { issues, errors } = await scan(dir).finally(() => (console.log = log));
    for (const error of errors) console.error(`electronegativity could not read ${error}`);
    for (const issue of issues) console.error(`${issue.file}:${issue.location.line}:${issue.location.column} ${issue.severity.name} ${issue.id}: ${issue.description}`);
    if (issues.length || errors.length) process.exit(1);
    console.log('electronegativity: nothing above LOW');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
