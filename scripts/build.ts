// Builds what the app runs: the renderer (Vite), Electron's main and preload, and browser mode's
// bridge script (esbuild). `--if-needed` skips the work when no source is newer than the last build.
import { build as esbuild } from 'esbuild';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build as vite } from 'vite';
import { channelNames, eventNames, GRANT_PATH_CHANNEL } from '../electron/contract/channels.ts';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const stampFile = join(dist, '.build-stamp');
const sources = ['electron', 'sandbox', 'common', 'renderer', 'package.json', 'vite.config.ts'];

async function newest(path: string): Promise<number> {
  const info = await stat(path).catch(() => null);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(path);
  const times = await Promise.all(entries.map((entry) => newest(join(path, entry))));
  return Math.max(info.mtimeMs, ...times);
}

export async function isBuildCurrent(): Promise<boolean> {
  const built = (await stat(stampFile).catch(() => null))?.mtimeMs ?? 0;
  const times = await Promise.all(sources.map((source) => newest(join(root, source))));
  return built > Math.max(...times);
}

export async function buildAll(): Promise<void> {
  await vite({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  const names = JSON.stringify({ channels: channelNames, events: eventNames });
  const common = { bundle: true, sourcemap: true, logLevel: 'warning', target: 'node22' } as const;
  const preload = { ...common, minify: true, define: { PRINTDESK_API_NAMES: names, PRINTDESK_GRANT_PATH_CHANNEL: JSON.stringify(GRANT_PATH_CHANNEL) } } as const;
  await Promise.all([
    esbuild({
      ...common,
      entryPoints: [join(root, 'electron/shell/main.ts')],
      outfile: join(dist, 'electron/main.mjs'),
      platform: 'node',
      format: 'esm',
      packages: 'external',
    }),
    // The host's worker thread that checks a 3MF against the specification before upload (spec-check.ts).
    esbuild({
      ...common,
      entryPoints: [join(root, 'electron/services/models/spec-check-worker.ts')],
      outfile: join(dist, 'electron/spec-check-worker.mjs'),
      platform: 'node',
      format: 'esm',
      packages: 'external',
    }),
    // The host's worker thread that reads a large model's first picture for its preview (model-picture.ts).
    esbuild({
      ...common,
      entryPoints: [join(root, 'electron/services/models/picture-worker.ts')],
      outfile: join(dist, 'electron/picture-worker.mjs'),
      platform: 'node',
      format: 'esm',
      packages: 'external',
    }),
    esbuild({
      ...preload,
      entryPoints: [join(root, 'electron/shell/preload.ts')],
      outfile: join(dist, 'electron/preload.cjs'),
      // A sandboxed preload may require only 'electron' itself: everything else is bundled in.
      platform: 'node',
      format: 'cjs',
      external: ['electron'],
    }),
    esbuild({
      ...preload,
      entryPoints: [join(root, 'electron/browser/preload.ts')],
      outfile: join(dist, 'browser/bridge.js'),
      platform: 'browser',
      format: 'iife',
      target: 'chrome130',
    }),
  ]);
  await writeFile(stampFile, new Date().toISOString());
}

if (import.meta.main) {
  const ifNeeded = process.argv.includes('--if-needed');
  if (ifNeeded && (await isBuildCurrent())) process.exit(0);
  await buildAll();
  console.log('built dist/renderer, dist/electron, dist/browser');
}
