// Runs electron/shell/main.ts in this process with the `electron` module replaced by the recording fake. Once per
// test file (main.ts starts the app when imported): set `record` and `app` up first.
import { registerHooks } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const fakeUrl = pathToFileURL(join(import.meta.dirname, 'fake-electron.ts')).href;

export async function importMain(): Promise<void> {
  registerHooks({
    resolve: (specifier, context, next) => (specifier === 'electron' ? { url: fakeUrl, shortCircuit: true } : next(specifier, context)),
  });
  await import('../../electron/shell/main.ts');
}
